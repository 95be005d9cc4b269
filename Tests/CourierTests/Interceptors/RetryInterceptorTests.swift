import CourierCurl
import CourierTestServer
import Foundation
import HTTPTypes
import Synchronization
import Testing

@testable import Courier

@Suite("Retry interceptor")
struct RetryInterceptorTests {
    static func retry(
        _ sleeps: SleepRecorder, budget: RetryBudget = .unlimited, now: Date = Date(),
        configure: (inout RetryInterceptor.Policy) -> Void = { _ in }
    ) -> RetryInterceptor {
        var policy = RetryInterceptor.Policy()
        configure(&policy)
        return RetryInterceptor(policy: policy, budget: budget, sleep: sleeps.sleep, random: { 0.5 }, now: { now })
    }

    @Test(arguments: ServerTransport.all)
    func retriesA503UntilTheServerRecoversWithJitteredExponentialBackoff(transport: ServerTransport) async throws {
        let sleeps = SleepRecorder()
        try await withTestServer { server in
            let client = transport.client(interceptors: [Self.retry(sleeps) { $0.maxAttempts = 4 }])
            let response = try await client.send(Request(url: server.url("/flaky/\(uniqueKey())/3")))
            #expect(response.status == .ok)
            #expect(response.headerFields[HTTPField.Name("X-Attempt")!] == "4")
            #expect(server.hits("/flaky") == 4)
            #expect(sleeps.all == [.milliseconds(100), .milliseconds(200), .milliseconds(400)])
        }
    }

    @Test(arguments: ServerTransport.all)
    func givesUpAfterMaxAttemptsAndReturnsTheLastResponse(transport: ServerTransport) async throws {
        let sleeps = SleepRecorder()
        try await withTestServer { server in
            let client = transport.client(interceptors: [Self.retry(sleeps) { $0.maxAttempts = 3 }])
            let response = try await client.send(Request(url: server.url("/status/502")))
            #expect(response.status == .badGateway)
            #expect(server.hits("/status") == 3)
            #expect(sleeps.all.count == 2)
        }
    }

    @Test(arguments: ServerTransport.all, [408, 429, 500, 502, 503, 504])
    func retriesEachDefaultStatus(transport: ServerTransport, code: Int) async throws {
        let sleeps = SleepRecorder()
        try await withTestServer { server async throws in
            let client = transport.client(interceptors: [Self.retry(sleeps)])
            let response = try await client.send(Request(url: server.url("/flaky/\(uniqueKey())/1?status=\(code)")))
            #expect(response.status == .ok)
            #expect(server.hits("/flaky") == 2)
        }
    }

    @Test(arguments: ServerTransport.all)
    func doesNotRetryOtherStatusesUnlessConfigured(transport: ServerTransport) async throws {
        let sleeps = SleepRecorder()
        try await withTestServer { server async throws in
            let plain = transport.client(interceptors: [Self.retry(sleeps)])
            #expect(try await plain.send(Request(url: server.url("/status/501"))).status.code == 501)
            #expect(server.hits("/status/501") == 1)
            let configured = transport.client(interceptors: [Self.retry(sleeps) { $0.retryableStatuses = [501] }])
            #expect(
                try await configured.send(Request(url: server.url("/flaky/\(uniqueKey())/1?status=501"))).status == .ok)
            #expect(server.hits("/flaky") == 2)
        }
    }

    @Test(arguments: ServerTransport.all)
    func honoursRetryAfterDeltaSeconds(transport: ServerTransport) async throws {
        let sleeps = SleepRecorder()
        try await withTestServer { server in
            let client = transport.client(interceptors: [Self.retry(sleeps)])
            let response = try await client.send(
                Request(url: server.url("/flaky/\(uniqueKey())/1?status=429&retry_after=7")))
            #expect(response.status == .ok)
            #expect(sleeps.all == [.seconds(7)])
        }
    }

    @Test(arguments: ServerTransport.all)
    func a503WithRetryAfterHTTPDateWaitsUntilThatDate(transport: ServerTransport) async throws {
        let sleeps = SleepRecorder()
        let now = Date(timeIntervalSince1970: 1_784_000_000)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        let date = formatter.string(from: now.addingTimeInterval(12))
        let query = date.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        try await withTestServer { server in
            let client = transport.client(interceptors: [Self.retry(sleeps, now: now)])
            let response = try await client.send(
                Request(url: server.url("/flaky/\(uniqueKey())/1?status=503&retry_after=\(query)")))
            #expect(response.status == .ok)
            #expect(server.receivedRequests.count == 2)
            #expect(sleeps.all == [.seconds(12)])
        }
    }

    @Test(arguments: ServerTransport.all)
    func reallyWaitsForRetryAfterWithTheDefaultSleep(transport: ServerTransport) async throws {
        try await withTestServer { server in
            let client = transport.client(interceptors: [RetryInterceptor()])
            let start = ContinuousClock.now
            let response = try await client.send(Request(url: server.url("/flaky/\(uniqueKey())/1?retry_after=1")))
            #expect(response.status == .ok)
            #expect(ContinuousClock.now - start >= .milliseconds(950))
        }
    }

    @Test(arguments: ServerTransport.all)
    func aRetryAfterBeyondTheCapEndsTheRetries(transport: ServerTransport) async throws {
        let sleeps = SleepRecorder()
        try await withTestServer { server in
            let client = transport.client(interceptors: [Self.retry(sleeps) { $0.maxRetryAfter = .seconds(30) }])
            let response = try await client.send(Request(url: server.url("/status/503?retry_after=3600")))
            #expect(response.status == .serviceUnavailable)
            #expect(response.headerFields[.retryAfter] == "3600")
            #expect(server.hits("/status") == 1)
            #expect(sleeps.all.isEmpty)
        }
    }

    @Test(arguments: ServerTransport.all)
    func anUnreadableRetryAfterFallsBackToTheBackoff(transport: ServerTransport) async throws {
        let sleeps = SleepRecorder()
        try await withTestServer { server in
            let client = transport.client(interceptors: [Self.retry(sleeps)])
            _ = try await client.send(Request(url: server.url("/flaky/\(uniqueKey())/1?retry_after=soon")))
            #expect(sleeps.all == [.milliseconds(100)])
        }
    }

    @Test func retriesConnectionFailures() async throws {
        let sleeps = SleepRecorder()
        // Port 1 on loopback: privileged and never listened on, whereas a stopped test server's port
        // may already have gone to another suite's server.
        let url = URL(string: "http://127.0.0.1:1/echo")!
        let passes = PassCounter()
        let client = Client(interceptors: [Self.retry(sleeps) { $0.maxAttempts = 3 }, passes.interceptor])
        let error = await #expect(throws: CourierError.self) { try await client.send(Request(url: url)) }
        #expect(error?.code == .cannotConnect)
        #expect(passes.total == 3)
        #expect(sleeps.all.count == 2)
    }

    @Test(arguments: ServerTransport.all)
    func doesNotRetryAPostWithoutAnIdempotencyKey(transport: ServerTransport) async throws {
        let sleeps = SleepRecorder()
        try await withTestServer { server in
            let client = transport.client(interceptors: [Self.retry(sleeps)])
            let request = try server.url("/status/503").buildRequest {
                Method.POST
                RequestBody.string("order")
            }
            #expect(try await client.send(request).status == .serviceUnavailable)
            #expect(server.hits("/status") == 1)
        }
    }

    @Test(arguments: ServerTransport.all)
    func retriesAPostThatCarriesAnIdempotencyKey(transport: ServerTransport) async throws {
        let sleeps = SleepRecorder()
        try await withTestServer { server in
            let client = transport.client(interceptors: [Self.retry(sleeps)])
            let request = try server.url("/flaky/\(uniqueKey())/1").buildRequest {
                Method.POST
                IdempotencyKey("order-17")
                RequestBody.string("order")
            }
            #expect(try await client.send(request).status == .ok)
            let received = server.receivedRequests
            #expect(received.count == 2)
            #expect(received.map { $0.header("idempotency-key") } == ["order-17", "order-17"])
            #expect(received.map { String(decoding: $0.body, as: UTF8.self) } == ["order", "order"])
        }
    }

    @Test(arguments: ServerTransport.all)
    func addsOneIdempotencyKeyForEveryAttemptWhenAsked(transport: ServerTransport) async throws {
        let sleeps = SleepRecorder()
        try await withTestServer { server in
            let client = transport.client(interceptors: [Self.retry(sleeps) { $0.addsIdempotencyKey = true }])
            let request = try server.url("/flaky/\(uniqueKey())/2").buildRequest {
                Method.PATCH
                RequestBody.string("x")
            }
            #expect(try await client.send(request).status == .ok)
            let keys = server.receivedRequests.map { $0.header("idempotency-key") }
            #expect(keys.count == 3)
            #expect(keys[0] != nil && Set(keys).count == 1)
        }
    }

    @Test(arguments: ServerTransport.all)
    func aOneShotBodyIsNotReplayedButFailsClearly(transport: ServerTransport) async throws {
        let sleeps = SleepRecorder()
        try await withTestServer { server in
            let client = transport.client(interceptors: [Self.retry(sleeps)])
            let chunks = AsyncStream<Data> { continuation in
                continuation.yield(Data("one-".utf8))
                continuation.yield(Data("shot".utf8))
                continuation.finish()
            }
            let request = try server.url("/flaky/\(uniqueKey())/1").buildRequest {
                Method.PUT
                RequestBody.stream(chunks, length: 8)
            }
            let error = await #expect(throws: CourierError.self) { try await client.send(request) }
            #expect(error?.code == .bodyNotReplayable)
            #expect(error?.response?.status == .serviceUnavailable)
            #expect(error?.stage == "RetryInterceptor")
            let received = server.receivedRequests
            #expect(received.count == 1)
            #expect(received.first.map { String(decoding: $0.body, as: UTF8.self) } == "one-shot")
            #expect(sleeps.all.isEmpty)
        }
    }

    @Test(arguments: ServerTransport.all)
    func aRestartableStreamIsReplayedInFull(transport: ServerTransport) async throws {
        let sleeps = SleepRecorder()
        try await withTestServer { server in
            let client = transport.client(interceptors: [Self.retry(sleeps)])
            let request = try server.url("/flaky/\(uniqueKey())/1").buildRequest {
                Method.PUT
                RequestBody.stream(length: 7) {
                    AsyncStream<Data> { continuation in
                        continuation.yield(Data("replay!".utf8))
                        continuation.finish()
                    }
                }
            }
            #expect(try await client.send(request).status == .ok)
            #expect(server.receivedRequests.map { String(decoding: $0.body, as: UTF8.self) } == ["replay!", "replay!"])
        }
    }

    @Test(arguments: ServerTransport.all)
    func theBudgetStopsARetryStorm(transport: ServerTransport) async throws {
        let sleeps = SleepRecorder()
        let budget = RetryBudget(maxTokens: 3, depositPerRequest: 0.1)
        try await withTestServer { server async throws in
            let client = transport.client(interceptors: [Self.retry(sleeps, budget: budget) { $0.maxAttempts = 5 }])
            for _ in 0..<20 {
                #expect(try await client.send(Request(url: server.url("/status/503"))).status == .serviceUnavailable)
            }
            // 20 calls with up to 4 retries each would be 100 requests; the budget allows the
            // 3 initial tokens plus 0.1 per call: 2 more once 20 calls have deposited.
            let hits = server.hits("/status")
            #expect(hits >= 23 && hits <= 25)
            #expect(hits < 100)
            #expect(budget.availableRetries == 0)
        }
    }

    @Test(arguments: ServerTransport.all)
    func theBudgetIsSharedByConcurrentRequests(transport: ServerTransport) async throws {
        let sleeps = SleepRecorder()
        let budget = RetryBudget(maxTokens: 5, depositPerRequest: 0)
        try await withTestServer { server in
            let client = transport.client(interceptors: [Self.retry(sleeps, budget: budget) { $0.maxAttempts = 10 }])
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<10 {
                    group.addTask { _ = try await client.send(Request(url: server.url("/status/500"))) }
                }
                try await group.waitForAll()
            }
            #expect(server.hits("/status") == 15)
        }
    }

    @Test(arguments: ServerTransport.all)
    func aRetryableStatusThrownByAnInnerValidationIsRetried(transport: ServerTransport) async throws {
        let sleeps = SleepRecorder()
        try await withTestServer { server in
            let client = transport.client(interceptors: [Self.retry(sleeps), ValidationInterceptor()])
            let response = try await client.send(Request(url: server.url("/flaky/\(uniqueKey())/1?retry_after=3")))
            #expect(response.status == .ok)
            #expect(sleeps.all == [.seconds(3)])
            let error = await #expect(throws: CourierError.self) {
                try await client.send(Request(url: server.url("/status/404")))
            }
            #expect(error?.code == .unacceptableStatus)
            #expect(server.hits("/status") == 1)
        }
    }

    @Test(arguments: ServerTransport.all)
    func cancellationDuringTheBackoffEndsTheSend(transport: ServerTransport) async throws {
        try await withTestServer { server in
            let retry = RetryInterceptor(
                policy: {
                    var policy = RetryInterceptor.Policy()
                    policy.backoff = Backoff(initial: .seconds(30), jitter: .none)
                    return policy
                }())
            let client = transport.client(interceptors: [retry])
            let task = Task { try await client.send(Request(url: server.url("/status/503"))) }
            while server.hits("/status") == 0 { try await Task.sleep(for: .milliseconds(10)) }
            task.cancel()
            let error = await #expect(throws: CourierError.self) { try await task.value }
            #expect(error?.code == .cancelled)
            #expect(server.hits("/status") == 1)
        }
    }
}

@Suite("Backoff, budget and Retry-After")
struct RetryPolicyTests {
    @Test func backoffGrowsExponentiallyUpToTheMaximum() {
        let backoff = Backoff(initial: .milliseconds(100), multiplier: 2, maximum: .seconds(1), jitter: .none)
        #expect(
            (1...6).map { backoff.delay(beforeRetry: $0, random: 0.3) } == [
                .milliseconds(100), .milliseconds(200), .milliseconds(400), .milliseconds(800), .seconds(1),
                .seconds(1),
            ])
    }

    @Test func fullJitterPicksBetweenZeroAndTheExponentialDelay() {
        let backoff = Backoff(initial: .seconds(1), jitter: .full)
        #expect(backoff.delay(beforeRetry: 2, random: 0) == .zero)
        #expect(backoff.delay(beforeRetry: 2, random: 0.25) == .milliseconds(500))
        #expect(backoff.delay(beforeRetry: 2, random: 1) == .seconds(2))
    }

    @Test func equalJitterNeverWaitsLessThanHalf() {
        let backoff = Backoff(initial: .seconds(1), jitter: .equal)
        #expect(backoff.delay(beforeRetry: 1, random: 0) == .milliseconds(500))
        #expect(backoff.delay(beforeRetry: 1, random: 1) == .seconds(1))
    }

    @Test func aHugeRetryNumberDoesNotOverflow() {
        #expect(Backoff(maximum: .seconds(10), jitter: .none).delay(beforeRetry: 10_000, random: 0) == .seconds(10))
    }

    @Test func theBudgetRefillsWithRequestsUpToItsMaximum() {
        let budget = RetryBudget(maxTokens: 2, depositPerRequest: 0.5)
        #expect(budget.availableRetries == 2)
        budget.deposit()
        #expect(budget.availableRetries == 2)
        #expect(budget.withdraw() && budget.withdraw())
        #expect(!budget.withdraw())
        budget.deposit()
        #expect(!budget.withdraw())
        budget.deposit()
        #expect(budget.withdraw())
    }

    @Test(arguments: [
        ("Sun, 06 Nov 1994 08:49:37 GMT", 784_111_777.0),
        ("Sunday, 06-Nov-94 08:49:37 GMT", 784_111_777.0),
        ("Sun Nov  6 08:49:37 1994", 784_111_777.0),
    ])
    func readsEveryHTTPDateForm(text: String, epoch: Double) {
        #expect(HTTPDate.parse(text)?.timeIntervalSince1970 == epoch)
    }

    @Test func readsDeltaSecondsAndRejectsNonsense() {
        let now = Date()
        #expect(RetryAfter.delay("120", now: now) == .seconds(120))
        #expect(RetryAfter.delay(" 0 ", now: now) == .zero)
        #expect(RetryAfter.delay("-5", now: now) == nil)
        #expect(RetryAfter.delay("soon", now: now) == nil)
        #expect(RetryAfter.delay("99999999999999999999999", now: now)! > .seconds(1_000_000))
    }

    @Test func aDateInThePastMeansNoWait() {
        let now = Date(timeIntervalSince1970: 784_111_800)
        #expect(RetryAfter.delay("Sun, 06 Nov 1994 08:49:37 GMT", now: now) == .zero)
        #expect(
            RetryAfter.delay("Sun, 06 Nov 1994 08:50:00 GMT", now: Date(timeIntervalSince1970: 784_111_777))
                == .seconds(23))
    }
}
