import Courier
import CourierAsyncHTTPClient
import CourierTestServer
import Foundation
import HTTPTypes
import Testing

@Suite("AsyncHTTPClientTransport limits and decoding", .timeLimit(.minutes(2)))
struct LimitsAndDecodingTests {
    static let routes = [.manyHeaders, .gzip, .gzipBomb, .redirect] + Route.defaults

    @Test func headerCountAtTheLimitIsAccepted() async throws {
        try await withTestServer(routes: Self.routes) { server in
            try await withTransport { transport in
                var limits = Limits()
                limits.maxHeaderCount = 10
                // Nine filler lines plus Content-Length.
                let response = try await transport.fetch(
                    request(.get, "/headers/9", on: server),
                    context: TransportContext(limits: limits))
                #expect(response.headerFields.count == 10)
            }
        }
    }

    @Test func headerCountOverTheLimitThrowsLimitExceededAndClosesTheConnection() async throws {
        try await withTestServer(routes: Self.routes) { server in
            try await withTransport { transport in
                var limits = Limits()
                limits.maxHeaderCount = 10
                // A body far larger than the socket buffers, so the transfer is still running when the head is refused.
                let error = await courierError {
                    _ = try await transport.send(
                        request(.get, "/headers/10?bytes=20000000", on: server),
                        context: TransportContext(limits: limits))
                }
                #expect(error?.code == .limitExceeded)
                #expect(error?.source == "Limits.maxHeaderCount")
                #expect(error?.request?.url.path == "/headers/10")
                #expect(await eventually { server.openConnectionCount == 0 })
            }
        }
    }

    @Test func headBytesOverTheLimitThrowsLimitExceeded() async throws {
        try await withTestServer(routes: Self.routes) { server in
            try await withTransport { transport in
                // "HTTP/1.1 200 OK\r\n" (17) + "Content-Length: 2\r\n" (19) + "\r\n" (2) is 38 bytes with no filler.
                var limits = Limits()
                limits.maxHeaderBytes = 38
                let exact = try await transport.fetch(
                    request(.get, "/headers/0", on: server),
                    context: TransportContext(limits: limits))
                #expect(exact.text == "ok")
                limits.maxHeaderBytes = 37
                let error = await courierError {
                    _ = try await transport.send(
                        request(.get, "/headers/0", on: server), context: TransportContext(limits: limits))
                }
                #expect(error?.code == .limitExceeded)
                #expect(error?.source == "Limits.maxHeaderBytes")
            }
        }
    }

    @Test func gzipBodyIsDecodedAndLosesContentEncodingAndContentLength() async throws {
        try await withTestServer(routes: Self.routes) { server in
            try await withTransport { transport in
                let response = try await transport.send(request(.get, "/gzip", on: server), context: TransportContext())
                // Unknown while the decoded body streams; its own size when it arrived whole with the
                // head. Never the encoded Content-Length, which describes bytes the reader never sees.
                let expectedLength = response.bodyStream?.expectedLength
                let collected = try await response.collectingBody(upTo: .max)
                #expect(collected.text == Fixtures.text)
                #expect(expectedLength == nil || expectedLength == Int64(collected.body.count))
                #expect(collected.headerFields.map(\.name.rawName) == ["Content-Type", "X-After"])
            }
        }
    }

    @Test func gzipBodyStaysEncodedWhenDecompressionIsOff() async throws {
        var configuration = AsyncHTTPClientTransport.Configuration()
        configuration.decompressesResponses = false
        try await withTestServer(routes: Self.routes) { server in
            try await withTransport(configuration) { transport in
                let response = try await transport.fetch(request(.get, "/gzip", on: server))
                #expect(response.body == Fixtures.gzippedText)
                #expect(response.headerFields[.contentEncoding] == "gzip")
                #expect(response.headerFields[.contentLength] == String(Fixtures.gzippedText.count))
            }
        }
    }

    @Test func headOfAGzipResourceKeepsItsHeaders() async throws {
        try await withTestServer(routes: Self.routes) { server in
            try await withTransport { transport in
                let response = try await transport.fetch(request(.head, "/gzip", on: server))
                #expect(response.body.isEmpty)
                #expect(response.headerFields[.contentEncoding] == "gzip")
                #expect(response.headerFields[.contentLength] == String(Fixtures.gzippedText.count))
            }
        }
    }

    @Test func decodingPastTheRatioLimitFailsWithLimitExceeded() async throws {
        try await withTestServer(routes: Self.routes) { server in
            try await withTransport { transport in
                let error = await courierError {
                    _ = try await transport.fetch(request(.get, "/gzip-bomb", on: server))
                }
                #expect(error?.code == .limitExceeded)
            }
        }
    }

    @Test func decodingWithinAHigherRatioLimitSucceeds() async throws {
        var configuration = AsyncHTTPClientTransport.Configuration()
        configuration.maxDecompressionRatio = 2000
        try await withTestServer(routes: Self.routes) { server in
            try await withTransport(configuration) { transport in
                let response = try await transport.fetch(request(.get, "/gzip-bomb", on: server))
                #expect(response.body == Data(count: 1_000_000))
            }
        }
    }

    @Test func redirectIsReturnedNotFollowed() async throws {
        try await withTestServer(routes: Self.routes) { server in
            try await withTransport { transport in
                let response = try await transport.fetch(request(.get, "/redirect", on: server))
                #expect(response.status == .found)
                #expect(response.headerFields[.location] == "/echo")
                #expect(server.receivedRequests.map(\.path) == ["/redirect"])
            }
        }
    }
}
