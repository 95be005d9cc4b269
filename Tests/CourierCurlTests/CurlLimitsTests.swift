import Courier
import CourierCurl
import CourierTestServer
import Foundation
import HTTPTypes
import TestProcesses
import Testing

@Suite("CurlTransport: limits and decompression", .timeLimit(.minutes(1)))
struct CurlLimitsTests {
    @Test func tooManyHeaderLinesFailWithLimitExceeded() async throws {
        var limits = Limits()
        limits.maxHeaderCount = 20
        try await withCurl { server, transport in
            let fine = try await transport.fetch(
                Request(url: server.url("/headers/10")), context: TransportContext(limits: limits))
            #expect(fine.headerFields[HTTPField.Name("X-Header-9")!] == "value 9")
            let error = await courierError {
                _ = try await transport.send(
                    Request(url: server.url("/headers/30")), context: TransportContext(limits: limits))
            }
            #expect(error?.code == .limitExceeded)
            #expect(error?.request != nil)
        }
    }

    @Test func aHeadLargerThanMaxHeaderBytesFailsWithLimitExceeded() async throws {
        var limits = Limits()
        limits.maxHeaderBytes = 1024
        try await withCurl { server, transport in
            let error = await courierError {
                _ = try await transport.send(
                    Request(url: server.url("/headers/100")), context: TransportContext(limits: limits))
            }
            #expect(error?.code == .limitExceeded)
            #expect(error?.message.contains("1024") == true)
        }
    }

    @Test func aGzipBodyIsDecodedAndItsEncodingHeadersRemoved() async throws {
        try await withCurl { server, transport in
            let response = try await transport.fetch(Request(url: server.url("/gzip")))
            #expect(response.text == CurlTestRoutes.plainText)
            #expect(response.headerFields[.contentEncoding] == nil)
            #expect(response.headerFields[.contentLength] == nil)
            #expect(response.headerFields[.contentType] == "text/plain")
        }
    }

    /// `/gzip`'s body decodes 65 bytes into 2400, a ratio of 36.9.
    @Test(arguments: [(false, 37, true), (false, 36, false), (true, 37, true), (true, 36, false)])
    func theDecompressionRatioIsExactAtItsBoundary(chunked: Bool, ratio: Int, passes: Bool) async throws {
        let server = try RawServer { connection, _ in
            while connection.readRequestHead() {
                let body = CurlTestRoutes.gzippedText
                if chunked {
                    var wire = Array(
                        "HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)
                    for start in stride(from: 0, to: body.count, by: 10) {
                        let piece = body[(body.startIndex + start)..<(body.startIndex + min(body.count, start + 10))]
                        wire += Array((String(piece.count, radix: 16) + "\r\n").utf8) + piece + Array("\r\n".utf8)
                    }
                    connection.send(wire + Array("0\r\n\r\n".utf8))
                } else {
                    connection.send(
                        Array("HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: \(body.count)\r\n\r\n".utf8)
                            + body)
                }
            }
        }
        defer { server.stop() }
        let transport = CurlTransport()
        var limits = Limits()
        limits.maxDecompressionRatio = ratio
        let error = await courierError {
            let response = try await transport.fetch(
                Request(url: server.url("/")), context: TransportContext(limits: limits))
            #expect(response.text == CurlTestRoutes.plainText)
        }
        #expect(error?.code == (passes ? nil : .limitExceeded))
        await transport.shutdown()
    }

    @Test func aChunkedGzipBodyIsDecodedWithinTheRatio() async throws {
        let server = try RawServer { connection, _ in
            guard connection.readRequestHead() else { return }
            let body = CurlTestRoutes.gzippedText
            var wire = Array("HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)
            for start in stride(from: 0, to: body.count, by: 10) {
                let piece = body[(body.startIndex + start)..<(body.startIndex + min(body.count, start + 10))]
                wire += Array((String(piece.count, radix: 16) + "\r\n").utf8) + piece + Array("\r\n".utf8)
            }
            connection.send(wire + Array("0\r\n\r\n".utf8))
        }
        defer { server.stop() }
        let transport = CurlTransport()
        var limits = Limits()
        limits.maxDecompressionRatio = 40
        let response = try await transport.fetch(
            Request(url: server.url("/")), context: TransportContext(limits: limits))
        #expect(response.text == CurlTestRoutes.plainText)
        await transport.shutdown()
    }

    @Test func aRequestWithItsOwnAcceptEncodingGetsTheBodyAsSent() async throws {
        try await withCurl { server, transport in
            let response = try await transport.fetch(
                Request(url: server.url("/gzip"), headerFields: [.acceptEncoding: "gzip"]))
            #expect(response.body == CurlTestRoutes.gzippedText)
            #expect(response.headerFields[.contentEncoding] == "gzip")
            #expect(response.headerFields[.contentLength] == String(CurlTestRoutes.gzippedText.count))
        }
    }

    @Test func aDecompressionBombFailsWithLimitExceeded() async throws {
        try await withCurl { server, transport in
            let response = try await transport.send(Request(url: server.url("/bomb")), context: TransportContext())
            let error = await courierError { _ = try await response.collectingBody(upTo: .max) }
            #expect(error?.code == .limitExceeded)
            #expect(error?.message.contains("maxDecompressionRatio") == true)
        }
    }

    @Test func aHighEnoughRatioLetsTheBombThrough() async throws {
        var limits = Limits()
        limits.maxDecompressionRatio = 2000
        try await withCurl { server, transport in
            let response = try await transport.fetch(
                Request(url: server.url("/bomb")), context: TransportContext(limits: limits))
            #expect(response.body == Data(count: 1_000_000))
        }
    }

    @Test func aCompressedBodyReadSlowlyThroughPausesArrivesIntact() async throws {
        var state: UInt32 = 12345
        let payload = Data(
            (0..<3_000_000).map { _ -> UInt8 in
                state = state &* 1_103_515_245 &+ 12345
                return UInt8(ascii: "a") + UInt8((state >> 16) % 16)
            })
        let compressed = try await gzip(payload)
        let server = try RawServer { connection, _ in
            guard connection.readRequestHead() else { return }
            connection.send(
                Array("HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: \(compressed.count)\r\n\r\n".utf8)
                    + compressed)
        }
        defer { server.stop() }
        var configuration = CurlTransport.Configuration()
        configuration.bodyHighWatermark = 64 * 1024
        configuration.bodyLowWatermark = 16 * 1024
        configuration.receiveBufferSize = 16 * 1024
        let transport = CurlTransport(configuration: configuration)
        let response = try await transport.send(Request(url: server.url("/")), context: TransportContext())
        var received = Data()
        for try await chunk in response.bodyStream! {
            received.append(chunk)
            if received.count < 500_000 { try await Task.sleep(for: .milliseconds(1)) }
        }
        #expect(received == payload)
        await transport.shutdown()
    }

    /// `data` compressed by the system's `gzip`.
    private func gzip(_ data: Data) async throws -> Data {
        let directory = FileManager.default.temporaryDirectory
        let input = directory.appending(path: "courier-gzip-\(UUID().uuidString)")
        try data.write(to: input)
        defer {
            try? FileManager.default.removeItem(at: input)
            try? FileManager.default.removeItem(at: input.appendingPathExtension("gz"))
        }
        let gzip = try await ChildProcess.run("gzip", ["-k", input.path])
        guard gzip.status == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: gzip.description])
        }
        return try Data(contentsOf: input.appendingPathExtension("gz"))
    }
}
