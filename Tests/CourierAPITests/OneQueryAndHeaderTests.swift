import Courier
import CourierAPI
import CourierCurl
import Foundation
import HTTPTypes
import Testing

/// A file that imports the core, CourierAPI and a transport together (a `Provider` on a
/// `CurlTransport`) finds one `Query` and one `Header`: the builder blocks, the parameter types
/// and the property wrappers are each one declaration, so nothing is ambiguous.
@Suite("One Query and one Header, whatever is imported")
struct OneQueryAndHeaderTests {
    @API
    protocol Search {
        @GET("/search")
        func search(term: Query<String>, trace: Header<String>) async throws -> String
    }

    @Test func theBuilderBlocksWorkBesideTheParameterTypes() throws {
        let request = try Request {
            BaseURL("https://api.example.com/items")
            Query("page", 2)
            Query(flag: "verbose")
            Header.accept.setValue("application/json")
            Header.custom("X-Trace").addValue("a")
        }
        #expect(request.url.query == "page=2&verbose")
        #expect(request.headerFields[.accept] == "application/json")
        #expect(request.headerFields[HTTPField.Name("X-Trace")!] == "a")
    }

    @Test func aProviderOnACurlTransportSendsTheParameters() async throws {
        let mock = MockTransport { request in .json("\"\(request.url.query ?? "")\"") }
        _ = CurlTransport.Configuration()
        let search = SearchAPI(Provider(baseURL: "https://api.example.com", client: Client(transport: mock)))
        #expect(try await search.search(term: "swift", trace: "abc") == "term=swift")
        #expect(mock.requests.first?.headerFields[HTTPField.Name("Trace")!] == "abc")
    }
}
