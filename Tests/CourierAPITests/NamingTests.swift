import CourierAPI
import Testing

/// `Query`, `Header`, `Headers`, `Authorization` and `Timeout` name both `CourierAPI` declarations and
/// core blocks; with `import CourierAPI` the core's uses keep working.
@Suite("One name, three uses")
struct NamingTests {
    @Test func coreBlocksKeepTheirMeaningUnderCourierAPI() throws {
        let request = try Request {
            Method.GET
            BaseURL("https://api.example.com/v1/")
            Endpoint("search")
            Query("q", "swift http")
            Query("page", 2)
            Query(flag: "verbose")
            Header.accept.setValue("application/json")
            Header.custom("X-Trace").setValue("t1")
            Headers { UserAgentHeader("Courier-Test/1.0") }
            Authorization.bearer("token-1")
            Timeout(5)
        }
        #expect(request.url.absoluteString == "https://api.example.com/v1/search?q=swift%20http&page=2&verbose")
        #expect(request.headerFields[.accept] == "application/json")
        #expect(request.headerFields[HTTPField.Name("X-Trace")!] == "t1")
        #expect(request.headerFields[.userAgent] == "Courier-Test/1.0")
        #expect(request.headerFields[.authorization] == "Bearer token-1")
        #expect(request.timeout == .seconds(5))
    }

    @Test func parameterTypesTakeLiteralsAndValues() {
        let query: Query<Int> = 3
        let header: Header<String> = "abc"
        let body = Body([1, 2])
        let field: Field<[String]> = ["a", "b"]
        let path: Path<Double> = 1.5
        #expect(query.wrappedValue == 3 && header.wrappedValue == "abc" && body.wrappedValue == [1, 2])
        #expect(field.wrappedValue == ["a", "b"] && path.wrappedValue == 1.5)
    }
}
