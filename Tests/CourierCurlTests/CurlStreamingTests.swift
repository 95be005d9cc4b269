import Courier
import CourierTestServer
import Foundation
import HTTPTypes
import Synchronization
import Testing

@testable import CourierCurl

@Suite("CurlTransport: streaming, backpressure and cancellation", .timeLimit(.minutes(1)))
struct CurlStreamingTests {
    /// A server sending `count` counting bytes per request; the NIO test server builds such bodies
    /// slowly on the cooperative pool in debug builds, which would starve the other tests.
    ///
    /// Its sends may wait 60 s for the client to read: the slow-consumer test holds the body back
    /// while it waits (up to 20 s on a loaded machine) for the transfer to settle, and a send that
    /// gave up after RawServer's usual 10 s closed the connection under it (curl error 18 in a
    /// ThreadSanitizer run while two builds shared the machine).
    private func countingServer(_ count: Int) throws -> RawServer {
        try RawServer(timeout: 60) { connection, server in
            while connection.readRequestHead() {
                guard connection.sendCountingBytes(count) else { return }
                server.record("sent")
            }
        }
    }

    @Test func aLargeDownloadArrivesCompleteAndInOrder() async throws {
        let count = 20_000_000
        let server = try countingServer(count)
        defer { server.stop() }
        let transport = CurlTransport()
        do {
            let response = try await transport.send(Request(url: server.url("/bytes")), context: TransportContext())
            #expect(response.bodyStream?.expectedLength == Int64(count))
            var received = 0
            var inOrder = true
            for try await chunk in response.bodyStream! {
                if chunk.first != UInt8(truncatingIfNeeded: received)
                    || chunk.last != UInt8(truncatingIfNeeded: received + chunk.count - 1)
                {
                    inOrder = false
                }
                received += chunk.count
            }
            #expect(received == count)
            #expect(inOrder)
        }
        await transport.shutdown()
    }

    /// A body that ends in its head's round reaches `send` whole, with no stream behind it; a large one streams.
    @Test func aSmallBodyThatEndsWithItsHeadArrivesWholeAndALargeOneStreams() async throws {
        let server = try RawServer { connection, _ in
            // Head and body in one write, so curl reads them, and sees the end, in one round.
            while connection.readRequestHead() {
                guard connection.send("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello") else { return }
            }
        }
        defer { server.stop() }
        let large = try countingServer(4_000_000)
        defer { large.stop() }
        let transport = CurlTransport()
        do {
            let small = try await transport.send(Request(url: server.url("/small")), context: TransportContext())
            #expect(small.bodyStream?.arrivedWhole == true)
            #expect(try await small.collectingBody(upTo: .max).body == Data("hello".utf8))
            let streamed = try await transport.send(Request(url: large.url("/bytes")), context: TransportContext())
            #expect(streamed.bodyStream?.arrivedWhole == false)
            #expect(try await streamed.collectingBody(upTo: .max).body.count == 4_000_000)
        }
        await transport.shutdown()
    }

    /// The receive buffer is 16 KiB, libcurl's default, yet a body of several buffers that ends
    /// in its head's round still reaches `send` whole: the pending limit is not one buffer.
    @Test func aBodyOfSeveralReceiveBuffersMayArriveWholeWithItsHead() {
        let defaults = CurlTransport.Configuration()
        #expect(defaults.receiveBufferSize == 16 * 1024)
        #expect(ActiveTransfer.pendingLimit(for: defaults, driven: false) == 64 * 1024)
        var large = defaults
        large.receiveBufferSize = 256 * 1024
        #expect(ActiveTransfer.pendingLimit(for: large, driven: false) == 256 * 1024)
        var lowWatermark = defaults
        lowWatermark.bodyHighWatermark = 32 * 1024
        #expect(ActiveTransfer.pendingLimit(for: lowWatermark, driven: false) == 32 * 1024)
        #expect(ActiveTransfer.pendingLimit(for: defaults, driven: true) == .max)
    }

    @Test func aSlowConsumerKeepsTheBufferedBytesUnderTheHighWatermark() async throws {
        var configuration = CurlTransport.Configuration()
        configuration.bodyHighWatermark = 256 * 1024
        configuration.bodyLowWatermark = 64 * 1024
        configuration.receiveBufferSize = 16 * 1024
        // What may sit between the socket and the consumer beyond the watermark: the chunk that
        // crossed it, and the one curl holds back while paused.
        let slack: Int64 = 2 * 16 * 1024
        let progress = ProgressLog()
        let context = TransportContext(downloadProgress: { received, total in progress.record(received, total) })
        let count = 50_000_000
        let server = try countingServer(count)
        defer { server.stop() }
        let transport = CurlTransport(configuration: configuration)
        do {
            let response = try await transport.send(Request(url: server.url("/bytes")), context: context)
            var iterator = response.bodyStream!.makeAsyncIterator()
            var consumed: Int64 = 0
            var largestBacklog: Int64 = 0
            for _ in 0..<40 {
                guard let chunk = try await iterator.next() else { break }
                consumed += Int64(chunk.count)
                try await Task.sleep(for: .milliseconds(10))
                largestBacklog = max(largestBacklog, progress.latest - consumed)
            }
            var previous: Int64 = -1
            // Settled: no progress for half a second, even if the loaded machine starves the I/O thread a while.
            let deadline = ContinuousClock.now + .seconds(20)
            while progress.latest != previous, ContinuousClock.now < deadline {
                previous = progress.latest
                try await Task.sleep(for: .milliseconds(500))
            }
            let receivedWhilePaused = progress.latest
            try await Task.sleep(for: .milliseconds(300))
            #expect(progress.latest == receivedWhilePaused, "the transfer kept reading while the consumer was idle")
            #expect(receivedWhilePaused < Int64(count))
            largestBacklog = max(largestBacklog, progress.latest - consumed)
            #expect(largestBacklog <= Int64(configuration.bodyHighWatermark) + slack)
            while let chunk = try await iterator.next() {
                consumed += Int64(chunk.count)
            }
            #expect(consumed == Int64(count))
            #expect(progress.last?.0 == Int64(count))
            #expect(progress.last?.1 == Int64(count))
        }
        await transport.shutdown()
    }

    @Test func cancellingBeforeTheHeadClosesTheConnectionAndEndsQuickly() async throws {
        let server = try RawServer { connection, server in
            guard connection.readRequestHead() else { return }
            server.record("request")
            if connection.waitForClose() { server.record("closed") }
        }
        defer { server.stop() }
        let transport = CurlTransport()
        let task = Task { try await transport.send(Request(url: server.url("/slow")), context: TransportContext()) }
        #expect(await server.wait(for: "request"))
        let start = ContinuousClock.now
        task.cancel()
        let error = await courierError { _ = try await task.value }
        #expect(error?.code == .cancelled)
        #expect(error?.request != nil)
        #expect(ContinuousClock.now - start < .seconds(20))
        #expect(await server.wait(for: "closed"))
        await transport.shutdown()
    }

    @Test func sendingFromAnAlreadyCancelledTaskThrowsCancelled() async throws {
        try await withCurl { server, transport in
            let task = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return try await transport.send(Request(url: server.url("/echo")), context: TransportContext())
            }
            let error = await courierError { _ = try await task.value }
            #expect(error?.code == .cancelled)
        }
    }

    @Test func cancellingDuringTheBodyClosesTheConnectionAndEndsQuickly() async throws {
        let server = try RawServer { connection, server in
            guard connection.readRequestHead() else { return }
            connection.send("HTTP/1.1 200 OK\r\nContent-Length: 1000000000\r\n\r\n")
            let chunk = [UInt8](repeating: 42, count: 64 * 1024)
            while connection.send(chunk) {}
            server.record("closed")
        }
        defer { server.stop() }
        let transport = CurlTransport()
        let started = Atomic(0)
        let task = Task {
            let response = try await transport.send(Request(url: server.url("/endless")), context: TransportContext())
            for try await _ in response.bodyStream! {
                started.store(1, ordering: .relaxed)
                try? await Task.sleep(for: .milliseconds(5))
            }
        }
        while started.load(ordering: .relaxed) == 0 { try await Task.sleep(for: .milliseconds(5)) }
        let start = ContinuousClock.now
        task.cancel()
        let error = await courierError { try await task.value }
        #expect(error?.code == .cancelled)
        #expect(ContinuousClock.now - start < .seconds(20))
        #expect(await server.wait(for: "closed"))
        await transport.shutdown()
    }

    @Test func droppingTheBodyIteratorAbortsTheTransferAndTheNextRequestUsesANewConnection() async throws {
        let server = try RawServer { connection, server in
            while connection.readRequestHead() {
                server.record("request")
                guard connection.send("HTTP/1.1 200 OK\r\nContent-Length: 200000000\r\n\r\n") else { break }
                let chunk = [UInt8](repeating: 7, count: 64 * 1024)
                while connection.send(chunk) {}
                server.record("closed")
                return
            }
        }
        defer { server.stop() }
        let transport = CurlTransport()
        for _ in 0..<2 {
            let response = try await transport.send(Request(url: server.url("/endless")), context: TransportContext())
            var iterator: ResponseBodyStream.AsyncIterator? = response.bodyStream!.makeAsyncIterator()
            _ = try await iterator?.next()
            iterator = nil
        }
        #expect(await server.wait(for: "closed", count: 2))
        #expect(server.recorded.filter { $0 == "accepted" }.count == 2)
        await transport.shutdown()
    }

    @Test func aBodyCutShortFailsTheStreamWithInvalidResponse() async throws {
        let server = try RawServer { connection, _ in
            guard connection.readRequestHead() else { return }
            connection.send("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\nonly ten b")
        }
        defer { server.stop() }
        let transport = CurlTransport()
        let response = try await transport.send(Request(url: server.url("/short")), context: TransportContext())
        #expect(response.status == .ok)
        let error = await courierError { _ = try await response.collectingBody(upTo: .max) }
        #expect(error?.code == .invalidResponse)
        #expect(error?.message.contains("curl error 18") == true)
        await transport.shutdown()
    }

    @Test func aServerThatClosesWithoutAnsweringIsAnInvalidResponse() async throws {
        let server = try RawServer { connection, _ in _ = connection.readRequestHead() }
        defer { server.stop() }
        let transport = CurlTransport()
        let error = await courierError {
            _ = try await transport.send(Request(url: server.url("/")), context: TransportContext())
        }
        #expect(error?.code == .invalidResponse)
        #expect(error?.message.contains("curl error 52") == true)
        await transport.shutdown()
    }

    @Test func garbageInsteadOfAResponseIsAnInvalidResponse() async throws {
        let server = try RawServer { connection, _ in
            guard connection.readRequestHead() else { return }
            connection.send("SSH-2.0-OpenSSH_9.2\r\n\r\n")
        }
        defer { server.stop() }
        let transport = CurlTransport()
        let error = await courierError {
            _ = try await transport.send(Request(url: server.url("/")), context: TransportContext())
        }
        #expect(error?.code == .invalidResponse)
        await transport.shutdown()
    }

    @Test func uploadAndDownloadProgressAreReported() async throws {
        let uploads = ProgressLog()
        let downloads = ProgressLog()
        let context = TransportContext(
            uploadProgress: { uploads.record($0, $1) },
            downloadProgress: { downloads.record($0, $1) })
        try await withCurl { server, transport in
            let payload = Data(repeating: 1, count: 1_000_000)
            let response = try await transport.fetch(
                Request(method: .post, url: server.url("/echo"), body: .data(payload)),
                context: context)
            #expect(uploads.last?.0 == 1_000_000)
            #expect(uploads.last?.1 == 1_000_000)
            #expect(downloads.last?.0 == Int64(response.body.count))
            #expect(downloads.last?.1 == Int64(response.body.count))
            #expect(uploads.count >= 2)
        }
    }
}
