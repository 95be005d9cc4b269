import Courier
import CourierFoundation
import Foundation
import HTTPTypes
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Conversions")
struct ConversionTests {
    @Test func urlRequestCarriesEveryPart() throws {
        let request = try build("https://api.example.com/v1/items?page=2") {
            Method.PUT
            Header.custom("X-A").setValue("1")
            Cookie("a", "1")
            Cookie("b", "2")
            RequestBody.string("hello")
            Timeout(12.5)
            CachePolicy(.reloadIgnoringLocalCacheData)
            NetworkServiceType(.background)
            HTTPShouldHandleCookies(false)
            AllowAccess.cellular(false)
        }
        let urlRequest = try URLRequest(request)
        #expect(urlRequest.url?.absoluteString == "https://api.example.com/v1/items?page=2")
        #expect(urlRequest.httpMethod == "PUT")
        #expect(urlRequest.value(forHTTPHeaderField: "X-A") == "1")
        #expect(urlRequest.value(forHTTPHeaderField: "Cookie") == "a=1; b=2")
        #expect(urlRequest.value(forHTTPHeaderField: "Content-Type") == "text/plain; charset=utf-8")
        #expect(urlRequest.value(forHTTPHeaderField: "Content-Length") == "5")
        #expect(urlRequest.httpBody == Data("hello".utf8))
        #expect(urlRequest.timeoutInterval == 12.5)
        #expect(urlRequest.cachePolicy == .reloadIgnoringLocalCacheData)
        #expect(urlRequest.networkServiceType == .background)
        #expect(urlRequest.httpShouldHandleCookies == false)
        #expect(urlRequest.allowsCellularAccess == false)
    }

    @Test func urlRequestBuilderRefusesARequestWithoutURL() {
        #expect(throws: CourierError.self) { try URLRequest { Method.DELETE } }
    }

    @Test func urlRequestRoundTripsThroughRequest() async throws {
        var urlRequest = URLRequest(url: URL(string: "https://example.com/a?b=c")!)
        urlRequest.httpMethod = "PATCH"
        urlRequest.setValue("application/json", forHTTPHeaderField: "Content-Type")
        urlRequest.httpBody = Data("{}".utf8)
        urlRequest.timeoutInterval = 5
        urlRequest.cachePolicy = .returnCacheDataDontLoad
        let request = try Request(urlRequest)
        #expect(request.method == .patch)
        #expect(request.url.absoluteString == "https://example.com/a?b=c")
        #expect(request.headerFields[.contentType] == "application/json")
        #expect(try await request.body?.collect() == Data("{}".utf8))
        #expect(request.timeout == .seconds(5))
        #expect(request.options[CachePolicyOption.self] == .returnCacheDataDontLoad)
    }

    @Test func urlRequestWithoutAnAbsoluteURLIsRejected() {
        let urlRequest = URLRequest(url: URL(string: "relative/path")!)
        let error = #expect(throws: CourierError.self) { try Request(urlRequest) }
        #expect(error?.source == "URLRequest")
    }

    @Test func streamedBodiesCannotBecomeURLRequests() {
        let request = Request(
            url: URL(string: "https://example.com")!,
            body: .stream(AsyncStream<Data> { $0.finish() }))
        let error = #expect(throws: CourierError.self) { try URLRequest(request) }
        #expect(error?.code == .invalidRequest)
    }

    @Test func httpRequestCarriesTheWireHead() throws {
        let request = try build("https://api.example.com:8443/v1/items?x=1") {
            Method.POST
            Accept(.json)
            RequestBody.string("abc")
        }
        let head = HTTPRequest(request)
        #expect(head.method == .post)
        #expect(head.scheme == "https")
        #expect(head.authority == "api.example.com:8443")
        #expect(head.path == "/v1/items?x=1")
        #expect(
            lines(head.headerFields) == [
                "Accept: application/json", "Content-Type: text/plain; charset=utf-8", "Content-Length: 3",
            ])
    }

    @Test func httpRequestConvertsBackWithABody() async throws {
        var head = HTTPRequest(method: .post, scheme: "http", authority: "127.0.0.1:8080", path: "/upload?x=1")
        head.headerFields[.contentLength] = "999"
        let request = try Request(head, body: .string("hi"))
        #expect(request.url.absoluteString == "http://127.0.0.1:8080/upload?x=1")
        #expect(request.headerFields[.contentLength] == nil)
        #expect(request.wireHeaderFields[.contentLength] == "2")
    }

    @Test func httpRequestWithoutAuthorityIsRejected() {
        let head = HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/x")
        #expect(throws: CourierError.self) { try Request(head) }
    }
}
