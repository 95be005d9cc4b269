import CourierCurl
import CourierTestServer
import Foundation
import HTTPTypes
import Synchronization
import Testing

@testable import Courier

@Suite("Concurrency limit interceptor")
struct ConcurrencyLimitInterceptorTests {
    @Test(arguments: ServerTransport.all)
    func theLimitHoldsUnder100ConcurrentSends(transport: ServerTransport) async throws {
        try await withTestServer { server in
            let limit = ConcurrencyLimitInterceptor(maxConcurrentRequests: 4, maxConcurrentRequestsPerHost: 4)
            let passes = PassCounter()
            let client = transport.client(interceptors: [limit, passes.interceptor])
            let counts = try await withThrowingTaskGroup(of: InFlightCount.self) { group in
                for _ in 0..<100 {
                    group.addTask {
                        try await client.send(Request(url: server.url("/inflight/20")), decoding: InFlightCount.self)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(counts.count == 100)
            #expect(passes.total == 100)
            #expect(passes.maxInFlight == 4)
            #expect(counts.map(\.maxInFlight).max()! <= 4)
            #expect(limit.runningCount == 0 && limit.waitingCount == 0)
        }
    }

    /// While one host holds both its permits and has a request waiting for them, requests to another
    /// host are admitted at once. The busy host's requests are held by a gate inside the limiter
    /// until the other host's have finished, so the outcome depends on no timing. (Counting how
    /// many requests overlapped on each host, as this test once did, does: on a loaded machine two
    /// 30 ms requests sometimes never overlap. A hold of a few seconds did too, since a loopback
    /// connect in the full suite can take longer.)
    @Test(arguments: ServerTransport.all)
    func thePerHostLimitLeavesOtherHostsFree(transport: ServerTransport) async throws {
        try await withTestServer { busy in
            try await withTestServer { other in
                let limit = ConcurrencyLimitInterceptor(maxConcurrentRequests: 10, maxConcurrentRequestsPerHost: 2)
                let gateOpen = Protected(false)
                let gate = ClosureInterceptor("Gate") { request, _, next in
                    if request.url.port == busy.baseURL.port {
                        while !gateOpen.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(5)) }
                    }
                    return try await next(request)
                }
                let client = transport.client(interceptors: [limit, gate])
                // Three requests to `busy`: two take its permits and wait at the gate, the third waits for a permit.
                let busyCounts = Task {
                    try await withThrowingTaskGroup(of: InFlightCount.self) { group in
                        for _ in 0..<3 {
                            group.addTask {
                                try await client.send(
                                    Request(url: busy.url("/inflight/10")), decoding: InFlightCount.self)
                            }
                        }
                        return try await group.reduce(into: []) { $0.append($1) }
                    }
                }
                let deadline = ContinuousClock.now + .seconds(30)
                while limit.waitingCount < 1 || limit.runningCount < 2, ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(5))
                }
                #expect(limit.runningCount == 2 && limit.waitingCount == 1)

                // A wrong limiter would queue these behind `busy`'s waiter, which the closed gate
                // holds: the race with a 60 s sleep then fails the test instead of hanging it.
                let otherCounts = try await withThrowingTaskGroup(of: [InFlightCount]?.self) { group in
                    group.addTask {
                        try await withThrowingTaskGroup(of: InFlightCount.self) { sends in
                            for _ in 0..<4 {
                                sends.addTask {
                                    try await client.send(
                                        Request(url: other.url("/inflight/10")), decoding: InFlightCount.self)
                                }
                            }
                            return try await sends.reduce(into: []) { $0.append($1) }
                        }
                    }
                    group.addTask {
                        try await Task.sleep(for: .seconds(60))
                        return nil
                    }
                    defer { group.cancelAll() }
                    return try await group.next() ?? nil
                }
                #expect(otherCounts?.count == 4, "the other host's requests waited behind the busy host's")
                #expect(limit.waitingCount == 1)

                gateOpen.withLock { $0 = true }
                let counts = try await busyCounts.value
                #expect(counts.count == 3 && counts.map(\.maxInFlight).max()! <= 2)
                #expect(limit.runningCount == 0 && limit.waitingCount == 0)
            }
        }
    }

    @Test func waitersAreAdmittedInArrivalOrder() async throws {
        let order = Trace()
        let gate = AsyncStream<Void>.makeStream()
        let limit = ConcurrencyLimitInterceptor(maxConcurrentRequests: 1, maxConcurrentRequestsPerHost: 1)
        let mock = MockTransport { request in
            order.add(request.url.lastPathComponent)
            if request.url.lastPathComponent == "0" {
                for await _ in gate.stream { break }
            }
            return .status(.ok)
        }
        let client = Client(transport: mock, interceptors: [limit])
        var tasks: [Task<Response, any Error>] = []
        for index in 0..<8 {
            tasks.append(Task { try await client.send(Request(url: URL(string: "https://example.com/\(index)")!)) })
            while limit.waitingCount < index || limit.runningCount == 0 { try await Task.sleep(for: .milliseconds(1)) }
        }
        gate.continuation.finish()
        for task in tasks { _ = try await task.value }
        #expect(order.all == (0..<8).map(String.init))
    }

    @Test(arguments: ServerTransport.all)
    func cancellingAWaiterRemovesItFromTheQueue(transport: ServerTransport) async throws {
        try await withTestServer { server in
            let limit = ConcurrencyLimitInterceptor(maxConcurrentRequests: 1)
            let client = transport.client(interceptors: [limit])
            // The holder's 4 s leave the waiter ample time to queue up even on a loaded machine.
            let holder = Task { try await client.send(Request(url: server.url("/delay/4000"))) }
            while limit.runningCount == 0 { try await Task.sleep(for: .milliseconds(5)) }
            let waiter = Task { try await client.send(Request(url: server.url("/status/200"))) }
            while limit.waitingCount == 0 { try await Task.sleep(for: .milliseconds(5)) }
            waiter.cancel()
            let error = await #expect(throws: CourierError.self) { try await waiter.value }
            #expect(error?.code == .cancelled)
            #expect(limit.waitingCount == 0)
            #expect(try await holder.value.status == .ok)
            #expect(server.hits("/status") == 0)
            #expect(try await client.send(Request(url: server.url("/status/200"))).status == .ok)
            #expect(limit.runningCount == 0)
        }
    }

    /// The first body is held open by the server after its first byte until the test lets it go,
    /// so the check does not race a clock: under ThreadSanitizer on two busy cores a 5 s drip,
    /// which this test once used, was over before a check due 1 s after its head.
    @Test(arguments: ServerTransport.all)
    func holdingTheSlotUntilTheBodyIsReadCountsSlowDownloadsInFull(transport: ServerTransport) async throws {
        let body = HeldBody()
        defer { body.release() }
        try await withTestServer(routes: Route.defaults + [body.route]) { server async throws in
            let limit = ConcurrencyLimitInterceptor(maxConcurrentRequests: 1, holdsSlotUntilBodyIsRead: true)
            let heads = HeadCounter()
            let client = transport.client(interceptors: [limit, heads.interceptor])
            let first = Task { try await client.stream(Request(url: server.url("/held-body"))) }
            try await Self.waitUntil("the first head arrives") { heads.count == 1 }
            let second = Task { try await client.stream(Request(url: server.url("/status/200"))) }
            try await Self.waitUntil("the second request queues") { limit.waitingCount == 1 }
            // A limiter that let the slot go with the head would admit the second one meanwhile.
            try await Task.sleep(for: .milliseconds(300))
            #expect(limit.waitingCount == 1, "the head arrived long ago, but the body is still being sent")
            #expect(server.hits("/status") == 0)
            body.release()
            let whole = try await first.value
            #expect(!whole.isStreaming && whole.body.count == 4)
            #expect(try await second.value.status == .ok)
            let paths = server.receivedRequests.map(\.path)
            #expect(paths == ["/held-body", "/status/200"])
        }
    }

    /// Returns once `condition` holds; fails the test after a minute (a loaded machine's worst).
    private static func waitUntil(_ what: String, _ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while !condition() {
            guard ContinuousClock.now < deadline else {
                Issue.record("waited a minute for: \(what)")
                throw CancellationError()
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    @Test func aFailedRequestReleasesItsSlot() async throws {
        let limit = ConcurrencyLimitInterceptor(maxConcurrentRequests: 1)
        let mock = MockTransport()
        mock.enqueue(.failure(.cannotConnect))
        mock.enqueue(.status(.ok))
        let client = Client(transport: mock, interceptors: [limit])
        await #expect(throws: CourierError.self) {
            try await client.send(Request(url: URL(string: "https://example.com")!))
        }
        #expect(limit.runningCount == 0)
        #expect(try await client.send(Request(url: URL(string: "https://example.com")!)).status == .ok)
    }

    @Test func theStateMachineSkipsWaitersForAFullHostButKeepsOrder() {
        var limiter = ConcurrencyLimiter(maxTotal: 2, maxPerHost: 1)
        let acquired = [
            limiter.acquire(id: 1, host: "a"), limiter.acquire(id: 2, host: "a"), limiter.acquire(id: 3, host: "b"),
            limiter.acquire(id: 4, host: "c"), limiter.acquire(id: 5, host: "b"),
        ]
        #expect(acquired == [true, false, true, false, false])
        let admittedAfterB = limiter.release(host: "b")
        #expect(admittedAfterB == [4])
        let admittedAfterA = limiter.release(host: "a")
        #expect(admittedAfterA == [2])
        let cancelled = [limiter.cancel(id: 5), limiter.cancel(id: 5)]
        #expect(cancelled == [true, false])
        let admittedAfterC = limiter.release(host: "c")
        #expect(admittedAfterC.isEmpty)
        #expect(limiter.running == 1)
    }
}

/// `/held-body`: a 4-byte chunked body whose first byte goes out with the head and whose other
/// three wait until ``release()``; the server polls every 10 ms, so nothing waits on a clock.
private final class HeldBody: Sendable {
    private let released = Atomic(false)

    func release() { released.store(true, ordering: .releasing) }

    var isReleased: Bool { released.load(ordering: .acquiring) }

    var route: Route {
        Route("/held-body") { [self] _ in
            TestServerResponse(
                status: 200, headers: [("Content-Type", "application/octet-stream")],
                stream: StreamedBody(length: nil, stream: HeldBodyStream(body: self)))
        }
    }
}

private struct HeldBodyStream: BodyStream {
    let body: HeldBody
    var sentFirstByte = false
    var rest: Data? = Data("***".utf8)

    mutating func next() -> BodyStreamPart {
        if !sentFirstByte {
            sentFirstByte = true
            return .bytes(Data("*".utf8))
        }
        guard body.isReleased else { return .pause(.milliseconds(10)) }
        guard let rest = rest.take() else { return .end }
        return .bytes(rest)
    }
}

/// Counts the responses (heads) that come back through it.
private final class HeadCounter: Sendable {
    private let heads = Atomic(0)

    var count: Int { heads.load(ordering: .acquiring) }

    var interceptor: ClosureInterceptor {
        ClosureInterceptor("HeadCounter") { [self] request, _, next in
            let response = try await next(request)
            heads.add(1, ordering: .releasing)
            return response
        }
    }
}
