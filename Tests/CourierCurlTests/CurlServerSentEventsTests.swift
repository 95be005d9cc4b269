import Courier
import CourierCurl
import CourierTestServer
import Foundation
import HTTPTypes
import Synchronization
import Testing

/// `Client.events` over libcurl against the loopback server's `/sse` route and a few event routes of its own.
@Suite("Server-Sent Events over curl", .timeLimit(.minutes(1)))
struct CurlServerSentEventsTests {
    @Test func eventsArriveTypedAndTheStreamStopsAtA204() async throws {
        let sleeps = SleepRecorder()
        try await withEventClient { client, server in
            let events = try await collect(
                client.events(try server.request("/sse?count=3"), reconnection: sleeps.policy()))
            #expect(events == (1...3).map { ServerSentEvent(type: "tick", data: "event \($0)\nof 3", id: "\($0)") })
            #expect(sleeps.delays == [.seconds(3)], "one reconnection, after the default delay, is answered 204")
            #expect(server.lastEventIDs("/sse") == [nil, "3"])
        }
    }

    @Test func everyConnectionAsksForAnUncachedEventStream() async throws {
        try await withEventClient { client, server in
            let request = try server.request("/sse?count=1") {
                Accept(.json)
                CacheControl([.maxAge(60)])
            }
            _ = try await collect(client.events(request, reconnection: SleepRecorder().policy()))
            let sent = server.receivedRequests.filter { $0.path == "/sse" }
            #expect(sent.count == 2)
            for request in sent {
                #expect(request.header("accept") == "text/event-stream")
                #expect(request.header("cache-control") == "no-cache")
            }
        }
    }

    @Test(arguments: ["lf", "crlf", "cr"], [false, true])
    func aDropMidEventReconnectsFromTheLastIDWithoutLossOrRepeat(newline: String, bytewise: Bool) async throws {
        let sleeps = SleepRecorder()
        try await withEventClient { client, server in
            let path = "/sse?count=6&drop_after=2&retry_ms=50&newline=\(newline)\(bytewise ? "&chunk=1" : "")"
            let events = try await collect(client.events(try server.request(path), reconnection: sleeps.policy()))
            #expect(events.map(\.id) == (1...6).map { "\($0)" })
            #expect(events.allSatisfy { $0.type == "tick" && $0.retry == .milliseconds(50) })
            #expect(server.lastEventIDs("/sse") == [nil, "2", "4", "6"])
            #expect(sleeps.delays == Array(repeating: .milliseconds(50), count: 3), "the server's retry sets the delay")
        }
    }

    @Test func anEventCutOffByADisconnectIsDiscarded() async throws {
        let sleeps = SleepRecorder()
        try await withEventClient(routes: [EventRoutes.cutOff()]) { client, server in
            let events = try await collect(client.events(try server.request("/sse-cut"), reconnection: sleeps.policy()))
            #expect(events == [ServerSentEvent(data: "a", id: "1"), ServerSentEvent(data: "b", id: "1")])
            #expect(server.lastEventIDs("/sse-cut") == [nil, "1", "1"])
            #expect(sleeps.delays.count == 2)
        }
    }

    @Test func everyReconnectionGoesThroughTheInterceptors() async throws {
        let passes = Atomic<Int>(0)
        let stamp = ClosureInterceptor("token") { request, _, next in
            let pass = passes.add(1, ordering: .relaxed).newValue
            return try await next(try request.updating { Authorization.bearer("token-\(pass)") })
        }
        try await withEventClient(interceptors: [stamp]) { client, server in
            let events = try await collect(
                client.events(
                    try server.request("/sse?count=4&drop_after=2"),
                    reconnection: SleepRecorder().policy()))
            #expect(events.count == 4)
            let tokens = server.receivedRequests.filter { $0.path == "/sse" }.map { $0.header("authorization") }
            #expect(tokens == ["Bearer token-1", "Bearer token-2", "Bearer token-3"])
        }
    }

    @Test func aFailedStatusIsUnacceptableStatusCarryingTheResponse() async throws {
        let sleeps = SleepRecorder()
        try await withEventClient { client, server in
            let error = await courierError {
                _ = try await collect(
                    client.events(try server.request("/sse?status=503"), reconnection: sleeps.policy()))
            }
            #expect(error?.code == .unacceptableStatus)
            #expect(error?.response?.status.code == 503)
            #expect(sleeps.delays.isEmpty, "a refused stream is not retried")
        }
    }

    @Test func anotherContentTypeIsUnacceptableContentType() async throws {
        try await withEventClient { client, server in
            let error = await courierError {
                _ = try await collect(
                    client.events(try server.request("/echo/x"), reconnection: SleepRecorder().policy()))
            }
            #expect(error?.code == .unacceptableContentType)
            #expect(error?.response?.status.code == 200)
        }
    }

    @Test func anUnreachableServerIsRetriedWithBackoffUntilThePolicyGivesUp() async throws {
        let sleeps = SleepRecorder()
        try await withEventClient { client, _ in
            let policy = sleeps.policy {
                $0.delay = .milliseconds(100)
                $0.backoff = 2
                $0.maximumDelay = .milliseconds(300)
                $0.maxReconnectsWithoutEvent = 3
            }
            let request = try Request {
                BaseURL("http://127.0.0.1:1/")
                Endpoint("/sse")
            }
            let error = await courierError { _ = try await collect(client.events(request, reconnection: policy)) }
            #expect(error?.code == .cannotConnect)
            #expect(sleeps.delays == [100, 200, 300].map { .milliseconds($0) })
        }
    }

    @Test func aLineAtTheLimitPassesAndOneByteMoreIsLimitExceeded() async throws {
        var configuration = Client.Configuration()
        configuration.limits.maxEventLineBytes = 64
        try await withEventClient(configuration: configuration) { client, server in
            let fits = try await collect(client.events(try server.request("/sse-line?length=64"), reconnection: .never))
            #expect(fits.map(\.data.utf8.count) == [58])
            let error = await courierError {
                _ = try await collect(client.events(try server.request("/sse-line?length=65"), reconnection: .never))
            }
            #expect(error?.code == .limitExceeded)
            #expect(error?.source == "Limits.maxEventLineBytes")
        }
    }

    @Test func aStreamOutlivesTheClientsTotalTimeout() async throws {
        var configuration = Client.Configuration()
        // The 4 s stream lasts twice the timeout, and its head has the whole 2 s to arrive on a loaded machine.
        configuration.timeout = .seconds(2)
        try await withEventClient(configuration: configuration) { client, server in
            let events = try await collect(
                client.events(
                    try server.request("/sse?count=4&interval_ms=1000"),
                    reconnection: SleepRecorder().policy()))
            #expect(events.count == 4)
            #expect(server.lastEventIDs("/sse") == [nil, "4"], "no reconnection was needed")
        }
    }

    @Test func eventsDecodeFromJSON() async throws {
        try await withEventClient { client, server in
            var ticks: [Tick] = []
            for try await tick in client.events(
                try server.request("/sse-json"), decoding: Tick.self, reconnection: .never)
            {
                ticks.append(tick)
            }
            #expect(ticks == [Tick(n: 1), Tick(n: 2), Tick(n: 3)])
            let error = await courierError {
                for try await _ in client.events(
                    try server.request("/sse-json?bad=1"), decoding: Tick.self, reconnection: .never)
                {}
            }
            #expect(error?.code == .decodingFailed)
        }
    }

    @Test func cancellingTheTaskEndsTheStreamAndItsConnection() async throws {
        try await withEventClient { client, server in
            let request = try server.request("/sse?count=100000&interval_ms=20")
            let received = Atomic<Int>(0)
            let task = Task {
                for try await _ in client.events(request, reconnection: SleepRecorder().policy()) {
                    received.add(1, ordering: .relaxed)
                }
            }
            try await waitUntil { received.load(ordering: .relaxed) >= 2 }
            task.cancel()
            let error = await courierError { try await task.value }
            #expect(error?.code == .cancelled)
            try await waitUntil { server.openConnectionCount == 0 }
            #expect(server.lastEventIDs("/sse") == [nil])
        }
    }

    @Test func leavingTheLoopEarlyAbortsTheTransfer() async throws {
        try await withEventClient { client, server in
            var seen: [String?] = []
            for try await event in client.events(try server.request("/sse?count=100000&interval_ms=20")) {
                seen.append(event.id)
                if seen.count == 2 { break }
            }
            #expect(seen == ["1", "2"])
            try await waitUntil { server.openConnectionCount == 0 }
            #expect(server.lastEventIDs("/sse") == [nil])
        }
    }
}

/// The payload of `/sse-json`.
struct Tick: Codable, Equatable, Sendable {
    let n: Int
}

/// Event routes `/sse` lacks.
enum EventRoutes {
    /// `/sse-line?length=n`: one event whose `data: …` line is `n` bytes long.
    static let line = Route("/sse-line") { request in
        let length = Int(request.query("length") ?? "") ?? 64
        let text = "data: " + String(repeating: "x", count: max(length - 6, 0)) + "\n\n"
        return TestServerResponse(headers: [("Content-Type", "text/event-stream")], body: Data(text.utf8))
    }

    /// `/sse-cut`: the first connection sends event 1, then half of event 2 (a whole `data` line
    /// and part of another) and closes mid-body; the second sends `data: b`; later ones get 204.
    static func cutOff() -> Route {
        let connections = Connections()
        return Route("/sse-cut") { _ in
            let parts: [BodyStreamPart]
            switch connections.next() {
            case 1: parts = [.bytes(Data("id: 1\ndata: a\n\nid: 2\ndata: partial\ndata: cu".utf8)), .fault(.close)]
            case 2: parts = [.bytes(Data("data: b\n\n".utf8))]
            default: return TestServerResponse(status: 204)
            }
            return TestServerResponse(
                headers: [("Content-Type", "text/event-stream")],
                stream: StreamedBody(length: nil, stream: ScriptedBodyStream(parts)))
        }
    }

    /// Counts the connections a route has answered.
    final class Connections: Sendable {
        private let count = Atomic<Int>(0)
        func next() -> Int { count.add(1, ordering: .relaxed).newValue }
    }

    /// `/sse-json`: three events with JSON data; `bad=1` adds one that is not JSON.
    static let json = Route("/sse-json") { request in
        var text = (1...3).map { "data: {\"n\": \($0)}\n\n" }.joined()
        if request.query("bad") == "1" { text += "data: not json\n\n" }
        return TestServerResponse(
            headers: [("Content-Type", "text/event-stream; charset=utf-8")], body: Data(text.utf8))
    }
}

/// Records the reconnection waits instead of waiting.
final class SleepRecorder: Sendable {
    private let recorded = Protected<[Duration]>([])

    /// The waits asked for so far.
    var delays: [Duration] { recorded.withLock { $0 } }

    /// A policy that records its waits here and returns at once, configured by `configure`.
    func policy(_ configure: (inout ReconnectionPolicy) -> Void = { _ in }) -> ReconnectionPolicy {
        var policy = ReconnectionPolicy()
        policy.sleep = { delay in self.recorded.withLock { $0.append(delay) } }
        configure(&policy)
        return policy
    }
}

/// Reads `events` to its end.
func collect(_ events: EventStream) async throws -> [ServerSentEvent] {
    var collected: [ServerSentEvent] = []
    for try await event in events { collected.append(event) }
    return collected
}

/// Polls `condition` until it holds, failing after a generous 30 s (every suite starting at once on
/// two cores can hold a loopback exchange up for seconds).
func waitUntil(_ condition: () -> Bool) async throws {
    let deadline = ContinuousClock.now + .seconds(30)
    while !condition() {
        guard ContinuousClock.now < deadline else {
            Issue.record("the condition did not hold within 30 s")
            return
        }
        try await Task.sleep(for: .milliseconds(20))
    }
}

/// Runs `body` with a curl client and a test server that has `/sse`, `EventRoutes` and `routes`, shutting both down after.
func withEventClient<Result>(
    configuration: Client.Configuration = Client.Configuration(),
    interceptors: [any Interceptor] = [],
    routes: [Route] = [],
    _ body: (Client, TestServer) async throws -> Result
) async throws -> Result {
    try await withCurl(routes: Route.defaults + [EventRoutes.line, EventRoutes.json] + routes) { server, transport in
        try await body(Client(transport: transport, interceptors: interceptors, configuration: configuration), server)
    }
}

extension TestServer {
    /// A request to `path` (with any query) on this server, with more blocks.
    func request(
        _ path: String, @RequestBuilder _ content: () throws -> RequestBlockGroup = { RequestBuilder.buildBlock() }
    ) throws -> Request {
        try baseURL.buildRequest {
            Endpoint(path)
            try content()
        }
    }

    /// The `Last-Event-ID` of each request this server received for `path`, in order.
    func lastEventIDs(_ path: String) -> [String?] {
        receivedRequests.filter { $0.path == path }.map { $0.header("last-event-id") }
    }
}
