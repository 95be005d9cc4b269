import Courier
import CourierTestServer
import Foundation
import HTTPTypes
import Testing

@Suite("Transport conformance: cancellation, timeouts and streaming", .timeLimit(.minutes(1)))
struct CancellationConformanceTests {
    @Test(arguments: TransportUnderTest.all)
    func cancellingBeforeTheHeadEndsQuicklyWithCancelled(transport: TransportUnderTest) async throws {
        try await expectCancellationEndsQuickly(transport, path: "/delay/60000", after: .milliseconds(100))
    }

    @Test(arguments: TransportUnderTest.all)
    func cancellingDuringTheBodyEndsQuicklyWithCancelled(transport: TransportUnderTest) async throws {
        try await expectCancellationEndsQuickly(
            transport, path: "/drip?numbytes=1000&duration_ms=60000&chunk=10",
            after: .milliseconds(300))
    }

    /// Sends to `path`, cancels the task `after` a while, and checks it ends in `cancelled` promptly:
    /// the server would answer only after a minute, so ending within the (load-proof) bound means
    /// the cancellation ended it.
    private func expectCancellationEndsQuickly(
        _ transport: TransportUnderTest, path: String, after delay: Duration
    ) async throws {
        try await transport.withClient { client, server in
            let request = try server.request(path)
            let task = Task { try await client.send(request) }
            try await Task.sleep(for: delay)
            let started = ContinuousClock.now
            task.cancel()
            let error = await courierError { try await task.value }
            #expect(error?.code == .cancelled)
            #expect(ContinuousClock.now - started < .seconds(20))
        }
    }

    @Test(arguments: TransportUnderTest.all)
    func aRequestTimeoutEndsInTimedOut(transport: TransportUnderTest) async throws {
        try await transport.withClient { client, server in
            let started = ContinuousClock.now
            let error = await courierError {
                try await client.send(try server.request("/delay/60000") { Timeout(.seconds(1)) })
            }
            #expect(error?.code == .timedOut)
            #expect(ContinuousClock.now - started < .seconds(30), "the timeout, not the minute-long delay, ends it")
        }
    }

    @Test(arguments: TransportUnderTest.all)
    func anUnreachablePortIsCannotConnect(transport: TransportUnderTest) async throws {
        try await transport.withClient { client, _ in
            let error = await courierError {
                try await client.send(
                    try Request {
                        BaseURL("http://127.0.0.1:1/")
                        Timeout(20)
                    })
            }
            #expect(error?.code == .cannotConnect)
        }
    }

    @Test(arguments: TransportUnderTest.all)
    func aLargeBodyStreamsThroughInPieces(transport: TransportUnderTest) async throws {
        try await transport.withClient { client, server in
            let response = try await client.stream(try server.request("/bytes/8000000"))
            var total = 0
            var chunks = 0
            var misplaced = 0
            for try await chunk in try #require(response.bodyStream) {
                // `/bytes` sends byte i as i % 256: every byte must arrive, in its place.
                if !CountingBytesStream.matches(chunk, at: total) { misplaced += 1 }
                total += chunk.count
                chunks += 1
            }
            #expect(total == 8_000_000)
            #expect(misplaced == 0)
            #expect(chunks > 10)
        }
    }

    @Test(arguments: TransportUnderTest.all)
    func serverSentEventsArriveAsTheyAreWrittenEvenOneByteAtATime(transport: TransportUnderTest) async throws {
        try await transport.withClient { client, server in
            let response = try await client.send(
                try server.request("/sse?count=3&chunk=1") { Accept(.Text.eventStream) })
            #expect(response.headerFields[.contentType]?.hasPrefix("text/event-stream") == true)
            #expect(response.text.components(separatedBy: "event: tick").count - 1 == 3)
        }
    }

    @Test(arguments: TransportUnderTest.all)
    func progressIsReportedBothWays(transport: TransportUnderTest) async throws {
        let uploaded = ProgressRecord()
        let downloaded = ProgressRecord()
        try await transport.withClient { client, server in
            let request = try server.request("/echo/progress") {
                Method.POST
                RequestBody.data(Data(count: 500_000))
                OnUploadProgress { sent, _ in uploaded.record(sent) }
                OnDownloadProgress { received, _ in downloaded.record(received) }
            }
            _ = try await client.send(request)
        }
        #expect(uploaded.largest == 500_000)
        #expect(downloaded.largest > 500_000)
    }
}

/// The largest progress figure a callback reported.
final class ProgressRecord: Sendable {
    private let value = Protected<Int64>(0)
    func record(_ figure: Int64) { value.withLock { $0 = max($0, figure) } }
    var largest: Int64 { value.withLock { $0 } }
}
