import Courier
import CourierCurl
import CourierTestServer
import Foundation
import HTTPTypes
import Testing

@Suite("CurlTransport: what goes on the wire", .timeLimit(.minutes(1)))
struct CurlRequestTests {
    private var plain: CurlTransport.Configuration {
        var configuration = CurlTransport.Configuration()
        configuration.decompression = false
        return configuration
    }

    @Test func getSendsExactlyTheRequestHeadersPlusHost() async throws {
        try await withCurl(plain) { server, transport in
            let request = Request(
                url: server.url("/echo/a%20b?x=1&y"),
                headerFields: [
                    HTTPField.Name("X-One")!: "1", HTTPField.Name("x-two")!: "two",
                    .authorization: "Bearer t",
                ])
            let response = try await transport.fetch(request)
            #expect(response.status == .ok)
            let echo = try response.echoed()
            #expect(echo.method == "GET")
            #expect(echo.path == "/echo/a%20b")
            #expect(echo.query == "x=1&y")
            #expect(
                echo.headers == [
                    ["Host", "127.0.0.1:\(server.port)"], ["X-One", "1"], ["x-two", "two"],
                    ["Authorization", "Bearer t"],
                ])
        }
    }

    @Test func anEmptyHeaderValueIsSentEmptyNotDropped() async throws {
        try await withCurl(plain) { server, transport in
            let request = Request(url: server.url("/echo"), headerFields: [HTTPField.Name("X-Empty")!: ""])
            let echo = try await transport.fetch(request).echoed()
            #expect(echo.headers == [["Host", "127.0.0.1:\(server.port)"], ["X-Empty", ""]])
        }
    }

    @Test func decompressionAddsOnlyAcceptEncoding() async throws {
        try await withCurl { server, transport in
            let echo = try await transport.fetch(Request(url: server.url("/echo"))).echoed()
            #expect(echo.headers.map { $0[0] } == ["Host", "Accept-Encoding"])
            #expect(echo.headers.last?[1].contains("gzip") == true)
        }
    }

    @Test func aConfiguredUserAgentIsSentUnlessTheRequestHasOne() async throws {
        var configuration = plain
        configuration.userAgent = "courier-test/1"
        try await withCurl(configuration) { server, transport in
            let defaulted = try await transport.fetch(Request(url: server.url("/echo"))).echoed()
            #expect(defaulted.headers.contains(["User-Agent", "courier-test/1"]))
            let own = try await transport.fetch(Request(url: server.url("/echo"), headerFields: [.userAgent: "mine"]))
                .echoed()
            #expect(own.headers.filter { $0[0] == "User-Agent" } == [["User-Agent", "mine"]])
        }
    }

    @Test func postBytesGoesOutWithContentLength() async throws {
        try await withCurl(plain) { server, transport in
            let payload = Data((0..<3000).map { UInt8(truncatingIfNeeded: $0 * 7) })
            let request = Request(
                method: .post, url: server.url("/echo"), headerFields: [.contentType: "application/octet-stream"],
                body: .data(payload))
            let echo = try await transport.fetch(request).echoed()
            #expect(echo.method == "POST")
            #expect(
                echo.headers == [
                    ["Host", "127.0.0.1:\(server.port)"], ["Content-Type", "application/octet-stream"],
                    ["Content-Length", "3000"],
                ])
            #expect(echo.body == payload)
        }
    }

    @Test func postFileSendsTheWholeFile() async throws {
        let file = FileManager.default.temporaryDirectory.appending(path: "courier-curl-\(UUID().uuidString).bin")
        let payload = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try payload.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        try await withCurl(plain) { server, transport in
            let request = try Request {
                Method.PUT
                BaseURL(server.baseURL)
                Endpoint("/echo/upload")
                RequestBody.file(file)
            }
            let echo = try await transport.fetch(request).echoed()
            #expect(echo.method == "PUT")
            #expect(echo.headers.contains(["Content-Length", "300000"]))
            #expect(!echo.headers.contains { $0[0].lowercased() == "transfer-encoding" })
            #expect(echo.bodyLength == 300_000)
            #expect(echo.body == payload)
        }
    }

    @Test func aStreamOfUnknownLengthIsSentChunked() async throws {
        try await withCurl(plain) { server, transport in
            let parts = (0..<20).map { Data(repeating: UInt8($0), count: 5000 + $0) }
            let stream = AsyncStream<Data> { continuation in
                Task {
                    for part in parts {
                        continuation.yield(part)
                        try? await Task.sleep(for: .milliseconds(2))
                    }
                    continuation.finish()
                }
            }
            let request = Request(method: .post, url: server.url("/echo"), body: .stream(stream))
            let echo = try await transport.fetch(request).echoed()
            #expect(echo.headers == [["Host", "127.0.0.1:\(server.port)"], ["Transfer-Encoding", "chunked"]])
            #expect(echo.body == parts.reduce(Data(), +))
        }
    }

    @Test func aStreamOfKnownLengthIsSentWithContentLength() async throws {
        try await withCurl(plain) { server, transport in
            let parts = [Data("one ".utf8), Data("two ".utf8), Data("three".utf8)]
            let request = Request(
                method: .post, url: server.url("/echo"),
                body: .stream(parts.async, length: 13))
            let echo = try await transport.fetch(request).echoed()
            #expect(echo.headers == [["Host", "127.0.0.1:\(server.port)"], ["Content-Length", "13"]])
            #expect(echo.body == Data("one two three".utf8))
        }
    }

    @Test func aStreamShorterThanItsLengthFailsWithEncodingFailed() async throws {
        try await withCurl(plain) { server, transport in
            let request = Request(
                method: .post, url: server.url("/echo"), body: .stream([Data("abc".utf8)].async, length: 10))
            let error = await courierError { _ = try await transport.fetch(request) }
            #expect(error?.code == .encodingFailed)
            #expect(error?.request?.url == request.url)
        }
    }

    @Test func aFailingBodyStreamFailsTheRequestWithItsError() async throws {
        struct Broken: Error {}
        try await withCurl(plain) { server, transport in
            let stream = AsyncThrowingStream<Data, any Error> { continuation in
                continuation.yield(Data("partial".utf8))
                continuation.finish(throwing: Broken())
            }
            let request = Request(method: .post, url: server.url("/echo"), body: .stream(stream))
            let error = await courierError { _ = try await transport.fetch(request) }
            #expect(error?.code == .encodingFailed)
            #expect(error?.underlying is Broken)
        }
    }

    @Test func anExplicitExpectContinueGetsTheFinalResponseAfterTheInterimOne() async throws {
        try await withCurl(plain) { server, transport in
            let request = Request(
                method: .post, url: server.url("/echo"), headerFields: [.expect: "100-continue"],
                body: .data(Data("after continue".utf8)))
            let response = try await transport.fetch(request)
            #expect(response.status == .ok)
            #expect(try response.echoed().body == Data("after continue".utf8))
        }
    }

    @Test func headReturnsTheHeadersAndNoBody() async throws {
        try await withCurl(plain) { server, transport in
            let response = try await transport.fetch(Request(method: .head, url: server.url("/bytes/100")))
            #expect(response.status == .ok)
            #expect(response.headerFields[.contentLength] == "100")
            #expect(response.body.isEmpty)
            #expect(server.receivedRequests.last?.method == "HEAD")
        }
    }

    @Test func aCustomMethodIsSentAsIs() async throws {
        try await withCurl(plain) { server, transport in
            let echo = try await transport.fetch(Request(method: HTTPRequest.Method("LINK")!, url: server.url("/echo")))
                .echoed()
            #expect(echo.method == "LINK")
            #expect(echo.headers == [["Host", "127.0.0.1:\(server.port)"]])
        }
    }

    @Test func deleteWithABodySendsTheBody() async throws {
        try await withCurl(plain) { server, transport in
            let request = Request(method: .delete, url: server.url("/echo"), body: .data(Data("gone".utf8)))
            let echo = try await transport.fetch(request).echoed()
            #expect(echo.method == "DELETE")
            #expect(echo.body == Data("gone".utf8))
        }
    }

    @Test func anErrorStatusIsPassedThroughWithItsBody() async throws {
        try await withCurl(plain) { server, transport in
            let notFound = try await transport.fetch(Request(url: server.url("/status/404")))
            #expect(notFound.status == .notFound)
            let missing = try await transport.fetch(Request(url: server.url("/no/such/route")))
            #expect(missing.status.code == 404)
            #expect(!missing.body.isEmpty)
        }
    }

    @Test func aNonHTTPSchemeIsRefusedAsAnInvalidRequest() async throws {
        let transport = CurlTransport()
        let error = await courierError {
            _ = try await transport.send(
                Request(url: URL(string: "file:///etc/hostname")!),
                context: TransportContext())
        }
        #expect(error?.code == .invalidRequest)
        await transport.shutdown()
    }
}

extension Array where Element == Data {
    /// These chunks as an async sequence.
    var async: AsyncStream<Data> {
        AsyncStream { continuation in
            for chunk in self { continuation.yield(chunk) }
            continuation.finish()
        }
    }
}
