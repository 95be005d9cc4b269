import Courier
import CourierTestServer
import Foundation
import Synchronization
import Testing

@Suite("Transport conformance: Server-Sent Events", .timeLimit(.minutes(1)))
struct ServerSentEventsConformanceTests {
    @Test(arguments: TransportUnderTest.all, [false, true])
    func eventsSurviveDropsMidEventWithoutLossOrRepeat(transport: TransportUnderTest, bytewise: Bool) async throws {
        try await transport.withClient { client, server in
            var policy = ReconnectionPolicy()
            let waits = Atomic<Int>(0)
            policy.sleep = { _ in waits.add(1, ordering: .relaxed) }
            var ids: [String?] = []
            for try await event in client.events(
                try server.request("/sse?count=5&drop_after=2&newline=crlf\(bytewise ? "&chunk=1" : "")"),
                reconnection: policy)
            {
                #expect(event.type == "tick")
                #expect(event.data == "event \(event.id ?? "?")\nof 5")
                ids.append(event.id)
            }
            #expect(ids == (1...5).map { "\($0)" })
            let resumedFrom = server.receivedRequests.filter { $0.path == "/sse" }.map { $0.header("last-event-id") }
            #expect(resumedFrom.first == .some(nil))
            #expect(resumedFrom.last == "5", "the last reconnection, answered 204, resumes after the last event")
            // Never backwards. A reconnection may resume from the same event as the one before: the
            // server's drop can be a reset that discards bytes the client had not read yet, so a
            // connection may end with no new event (the events themselves are checked above). For
            // the same reason the first connections may end before any event, and their
            // reconnections have no ID to send: only those may lack Last-Event-ID.
            let reconnections = resumedFrom.dropFirst()
            let beforeAnyEvent = reconnections.prefix { $0 == nil }.count
            let resumePoints = reconnections.dropFirst(beforeAnyEvent).compactMap { $0.flatMap(Int.init) }
            #expect(
                resumePoints.count == reconnections.count - beforeAnyEvent && resumePoints == resumePoints.sorted(),
                "each reconnection resumes from the last event received: \(resumedFrom)")
            #expect(resumedFrom.count >= 4, "the server dropped the connection twice and ended it once")
            #expect(waits.load(ordering: .relaxed) == resumedFrom.count - 1)
        }
    }

    /// A server sending `data:` lines and never the blank line that ends an event: the event's
    /// data stops at `Limits.maxEventBytes` with `limitExceeded`, and the stream is not reopened.
    @Test(arguments: TransportUnderTest.all)
    func anEventThatNeverEndsStopsAtItsLimit(transport: TransportUnderTest) async throws {
        var configuration = Client.Configuration()
        configuration.limits.maxEventBytes = 1 << 20
        try await transport.withClient(configuration: configuration) { client, server in
            let error = await courierError {
                for try await _ in client.events(try server.request("/hostile/unterminated-events?lines=100000")) {}
            }
            #expect(error?.code == .limitExceeded)
            #expect(error?.source == "Limits.maxEventBytes")
            #expect(server.receivedRequests.filter { $0.path == "/hostile/unterminated-events" }.count == 1)
        }
    }

    @Test(arguments: TransportUnderTest.all)
    func cancellingAnEventStreamEndsItWithCancelled(transport: TransportUnderTest) async throws {
        try await transport.withClient { client, server in
            let request = try server.request("/sse?count=100000&interval_ms=20")
            let received = Atomic<Int>(0)
            let task = Task {
                for try await _ in client.events(request) { received.add(1, ordering: .relaxed) }
            }
            // Events come every 20 ms; the wait is long only for a machine busy starting every suite.
            let deadline = ContinuousClock.now + .seconds(30)
            while received.load(ordering: .relaxed) < 2, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(received.load(ordering: .relaxed) >= 2)
            task.cancel()
            let error = await courierError { try await task.value }
            #expect(error?.code == .cancelled)
        }
    }
}
