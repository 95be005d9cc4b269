import Courier
import CourierFoundation
import CourierTestServer
import CourierURLSession
import Foundation
import HTTPTypes
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What `URLSessionTransport` does beyond the conformance suite: bodies URLSession can only send
/// from a file, a session the app already has, the hints it reports, and its spool cleaned up.
@Suite struct URLSessionTransportTests {
    private func echoed(_ response: Response) throws -> EchoedRequest {
        try JSONDecoder().decode(EchoedRequest.self, from: response.body)
    }

    @Test func aFileBodyIsUploadedFromTheFileWithItsLength() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("courier-file-\(UUID().uuidString)")
        try Data(repeating: 0x61, count: 300_000).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let transport = URLSessionTransport()
        defer { transport.shutdown() }
        try await withTestServer { server in
            let request = try server.baseURL.buildRequest {
                Method.PUT
                Endpoint("/echo/file")
                RequestBody.file(file)
            }
            let echo = try echoed(try await Client(transport: transport).send(request))
            #expect(echo.bodyLength == 300_000)
            #expect(
                echo.headers.contains { $0 == ["Content-Length", "300000"] || $0 == ["content-length", "300000"] })
        }
    }

    @Test func aStreamedBodyIsSentWhole() async throws {
        let transport = URLSessionTransport()
        defer { transport.shutdown() }
        try await withTestServer { server in
            let chunks = AsyncStream<Data> { continuation in
                for index in 0..<5 { continuation.yield(Data(repeating: UInt8(65 + index), count: 10_000)) }
                continuation.finish()
            }
            let request = try server.baseURL.buildRequest {
                Method.POST
                Endpoint("/echo/stream")
                RequestBody.stream(chunks)
            }
            let echo = try echoed(try await Client(transport: transport).send(request))
            #expect(echo.bodyLength == 50_000)
            #expect(echo.body?.prefix(1) == Data("A".utf8))
            #expect(echo.body?.suffix(1) == Data("E".utf8))
        }
    }

    @Test func aSessionTheAppHasSendsAndIsLeftToTheApp() async throws {
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        let transport = URLSessionTransport(session: session)
        try await withTestServer { server in
            let response = try await Client(transport: transport).send(
                try server.baseURL.buildRequest { Endpoint("/echo/borrowed") })
            #expect(response.status == .ok)
            #expect(try echoed(response).path == "/echo/borrowed")
            let redirected = try await Client(transport: transport).send(
                try server.baseURL.buildRequest { Endpoint("/redirect-to?url=/echo/landed") })
            #expect(try echoed(redirected).path == "/echo/landed", "Courier's redirect stage followed the 302")
            #expect(redirected.history.count == 1)
        }
    }

    @Test func explainingNamesTheHintsTheTransportLeftUnapplied() async throws {
        let transport = URLSessionTransport()
        defer { transport.shutdown() }
        try await withTestServer { server in
            let (client, recorder) = Client(transport: transport).explaining()
            _ = try await client.send(
                try server.baseURL.buildRequest {
                    Endpoint("/echo/hinted")
                    CachePolicy(.reloadIgnoringLocalCacheData)
                    AllowAccess.cellular(false)
                    HTTPShouldHandleCookies(false)
                })
            let step = try #require(recorder.last?.steps.last)
            #expect(step.stage == "transport")
            #if canImport(Darwin)
            #expect(step.ignoredHints == ["CachePolicy"])
            #else
            #expect(step.ignoredHints == ["AllowAccess.cellular", "CachePolicy"])
            #expect(
                recorder.last?.text.contains("! not applied by URLSessionTransport: AllowAccess.cellular, CachePolicy")
                    == true)
            #endif
        }
    }

    @Test func aRequestWithoutHintsReportsNone() async throws {
        let transport = MockTransport()
        transport.enqueue(.text("ok"))
        let (client, recorder) = Client(transport: transport).explaining()
        _ = try await client.send(try Request { BaseURL("https://api.example.com") })
        #expect(recorder.last?.steps.last?.ignoredHints == nil)
        #expect(recorder.last?.text.contains("not applied") == false)
    }

    @Test func httpShouldHandleCookiesFalseKeepsTheJarOutOfTheExchange() async throws {
        let jar = CookieJar()
        jar.store([.setCookie: "kept=1; Path=/"], from: URL(string: "https://api.example.com/")!)
        let transport = MockTransport()
        transport.enqueue(MockResponse(headerFields: [.setCookie: "new=2; Path=/"]))
        transport.enqueue(MockResponse())
        var configuration = Client.Configuration()
        configuration.cookieJar = jar
        let client = Client(transport: transport, configuration: configuration)
        _ = try await client.send(
            try Request {
                BaseURL("https://api.example.com")
                HTTPShouldHandleCookies(false)
            })
        #expect(transport.requests.first?.headerFields[.cookie] == nil, "no stored cookie was sent")
        #expect(jar.cookies.map(\.name) == ["kept"], "the response's cookie was not stored")
        _ = try await client.send(try Request { BaseURL("https://api.example.com") })
        #expect(transport.requests.last?.headerFields[.cookie] == "kept=1", "without the hint the jar is used")
    }
}
