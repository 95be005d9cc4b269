import Courier
import CourierCurl
import CourierTestServer
import Foundation
import HTTPTypes
import Synchronization
import Testing

@Suite("Authentication interceptor")
struct AuthenticationInterceptorTests {
    struct RefreshFailed: Error {}

    @Test(arguments: ServerTransport.all)
    func appliesTheCredentialToEveryRequest(transport: ServerTransport) async throws {
        try await withTestServer { server in
            let auth = AuthenticationInterceptor.bearer(token: "courier-test-token") { _ in
                Issue.record("no refresh expected")
                return ""
            }
            let response = try await transport.client(interceptors: [auth]).send(Request(url: server.url("/bearer")))
            #expect(response.status == .ok)
            #expect(server.receivedRequests.first?.header("authorization") == "Bearer courier-test-token")
            #expect(auth.refreshCount == 0)
        }
    }

    @Test(arguments: ServerTransport.all)
    func a401RefreshesAndRetriesWithTheNewCredential(transport: ServerTransport) async throws {
        try await withTestServer { server in
            let refreshes = Counter()
            let auth = AuthenticationInterceptor.bearer(token: "expired") { stale in
                #expect(stale == "expired")
                refreshes.increment()
                return "fresh"
            }
            let response = try await transport.client(interceptors: [auth]).send(
                Request(url: server.url("/bearer?token=fresh")))
            #expect(response.status == .ok)
            #expect(server.receivedRequests.map { $0.header("authorization") } == ["Bearer expired", "Bearer fresh"])
            #expect(refreshes.value == 1)
            #expect(auth.credential == "fresh")
        }
    }

    @Test(arguments: ServerTransport.all)
    func concurrent401sCauseExactlyOneRefresh(transport: ServerTransport) async throws {
        try await withTestServer { server in
            let refreshes = Counter()
            let auth = AuthenticationInterceptor.bearer(token: "expired") { _ in
                refreshes.increment()
                try await Task.sleep(for: .milliseconds(200))
                return "fresh"
            }
            let client = transport.client(interceptors: [auth])
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<20 {
                    group.addTask { try await client.send(Request(url: server.url("/bearer?token=fresh"))).status.code }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses == Array(repeating: 200, count: 20))
            #expect(refreshes.value == 1)
            #expect(auth.refreshCount == 1)
            let sent = server.receivedRequests.compactMap { $0.header("authorization") }
            #expect(sent.filter { $0 == "Bearer fresh" }.count == 20)
        }
    }

    @Test(arguments: ServerTransport.all)
    func aRequestStartedDuringARefreshWaitsForIt(transport: ServerTransport) async throws {
        try await withTestServer { server in
            let gate = AsyncStream<Void>.makeStream()
            let started = Counter()
            let auth = AuthenticationInterceptor.bearer(token: "expired") { _ in
                started.increment()
                for await _ in gate.stream { break }
                return "fresh"
            }
            let client = transport.client(interceptors: [auth])
            let first = Task { try await client.send(Request(url: server.url("/bearer?token=fresh"))) }
            while started.value == 0 { try await Task.sleep(for: .milliseconds(5)) }
            try await Task.sleep(for: .milliseconds(20))
            let second = Task { try await client.send(Request(url: server.url("/bearer?token=fresh"))) }
            try await Task.sleep(for: .milliseconds(100))
            gate.continuation.yield()
            #expect(try await first.value.status == .ok)
            #expect(try await second.value.status == .ok)
            #expect(
                server.receivedRequests.map { $0.header("authorization") } == [
                    "Bearer expired", "Bearer fresh", "Bearer fresh",
                ])
            #expect(auth.refreshCount == 1)
        }
    }

    @Test(arguments: ServerTransport.all)
    func aWaiterCancelledDuringARefreshLeavesAtOnceAndTheRefreshGoesOn(transport: ServerTransport) async throws {
        try await withTestServer { server async throws in
            let gate = AsyncStream<Void>.makeStream()
            let started = Counter()
            let auth = AuthenticationInterceptor.bearer(token: "expired") { _ in
                started.increment()
                for await _ in gate.stream { break }
                return "fresh"
            }
            let client = transport.client(interceptors: [auth])
            let cancelled = Task { try await client.send(Request(url: server.url("/bearer?token=fresh"))) }
            while started.value == 0 { try await Task.sleep(for: .milliseconds(5)) }
            let patient = Task { try await client.send(Request(url: server.url("/bearer?token=fresh"))) }
            try await Task.sleep(for: .milliseconds(20))
            cancelled.cancel()
            let error = await #expect(throws: CourierError.self) { try await cancelled.value }
            #expect(error?.code == .cancelled)
            gate.continuation.finish()
            #expect(try await patient.value.status == .ok)
            #expect(auth.credential == "fresh")
            #expect(started.value == 1)
        }
    }

    @Test(arguments: ServerTransport.all)
    func aFailedRefreshIsATypedErrorForEveryWaiter(transport: ServerTransport) async throws {
        try await withTestServer { server in
            let refreshes = Counter()
            let refusals = Counter()
            let auth = AuthenticationInterceptor.bearer(token: "expired") { _ in
                refreshes.increment()
                // Fail only once all five 401s are on their way back to the interceptor, so that the
                // five were refused together however slowly a loaded machine sends them.
                let deadline = ContinuousClock.now + .seconds(20)
                while refusals.value < 5, ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(10))
                }
                try await Task.sleep(for: .milliseconds(100))
                throw RefreshFailed()
            }
            let countRefusals = ClosureInterceptor("count refusals") { request, _, next in
                let response = try await next(request)
                if response.status == .unauthorized { refusals.increment() }
                return response
            }
            let client = transport.client(interceptors: [auth, countRefusals])
            let errors = await withTaskGroup(of: CourierError?.self) { group in
                for _ in 0..<5 {
                    group.addTask {
                        do {
                            _ = try await client.send(Request(url: server.url("/bearer?token=fresh")))
                            return nil
                        } catch {
                            return error as? CourierError
                        }
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            #expect(errors.count == 5)
            for error in errors {
                #expect(error?.code == .authenticationFailed)
                #expect(error?.response?.status == .unauthorized)
                #expect(error?.underlying is RefreshFailed)
                #expect(error?.stage == "AuthenticationInterceptor")
            }
            #expect(refreshes.value == 1)
        }
    }

    @Test(arguments: ServerTransport.all)
    func aCredentialRefusedAgainAfterRefreshIsReturnedWithoutLooping(transport: ServerTransport) async throws {
        try await withTestServer { server in
            let auth = AuthenticationInterceptor.bearer(token: "expired") { _ in "still-wrong" }
            let response = try await transport.client(interceptors: [auth]).send(
                Request(url: server.url("/bearer?token=fresh")))
            #expect(response.status == .unauthorized)
            #expect(server.hits("/bearer") == 2)
        }
    }

    @Test(arguments: ServerTransport.all)
    func refreshesAreLimitedPerWindow(transport: ServerTransport) async throws {
        try await withTestServer { server async throws in
            var policy = AuthenticationInterceptor<String>.Policy()
            policy.maxRefreshes = 2
            policy.refreshWindow = .seconds(600)
            let refreshes = Counter()
            let auth = AuthenticationInterceptor.bearer(token: "t0", policy: policy) { _ in
                refreshes.increment()
                return "t\(refreshes.value)"
            }
            let client = transport.client(interceptors: [auth])
            for _ in 0..<2 {
                #expect(try await client.send(Request(url: server.url("/bearer?token=never"))).status == .unauthorized)
            }
            let error = await #expect(throws: CourierError.self) {
                try await client.send(Request(url: server.url("/bearer?token=never")))
            }
            #expect(error?.code == .authenticationFailed)
            #expect(error?.message.contains("2 times") == true)
            #expect(refreshes.value == 2)
        }
    }

    @Test func theRefreshWindowIsMeasuredOnTheInterceptorsClock() async throws {
        var policy = AuthenticationInterceptor<String>.Policy()
        policy.maxRefreshes = 2
        policy.refreshWindow = .seconds(30)
        let clock = TestClock()
        let refreshes = Counter()
        let auth = AuthenticationInterceptor.bearer(token: "t0", policy: policy, clock: clock) { _ in
            refreshes.increment()
            return "t\(refreshes.value)"
        }
        let client = Client(transport: MockTransport { _ in .status(.unauthorized) }, interceptors: [auth])
        let request = Request(url: URL(string: "https://example.test/private")!)
        func sendExpectingRefusal() async throws -> CourierError.Code? {
            do {
                #expect(try await client.send(request).status == .unauthorized)
                return nil
            } catch let error as CourierError {
                return error.code
            }
        }
        #expect(try await sendExpectingRefusal() == nil)
        clock.advance(by: .seconds(10))
        #expect(try await sendExpectingRefusal() == nil)
        clock.advance(by: .seconds(19))
        #expect(try await sendExpectingRefusal() == .authenticationFailed, "two refreshes in the last 29 s")
        clock.advance(by: .seconds(1))
        #expect(try await sendExpectingRefusal() == nil, "the first refresh left the window at 30 s")
        #expect(try await sendExpectingRefusal() == .authenticationFailed, "the second is still in it")
        #expect(refreshes.value == 3)
    }

    @Test(arguments: ServerTransport.all)
    func withoutACredentialTheFirstRequestObtainsOne(transport: ServerTransport) async throws {
        try await withTestServer { server async throws in
            let auth = AuthenticationInterceptor.bearer(token: nil) { stale in
                #expect(stale == nil)
                return "courier-test-token"
            }
            #expect(
                try await transport.client(interceptors: [auth]).send(Request(url: server.url("/bearer"))).status == .ok
            )
            #expect(server.hits("/bearer") == 1)
        }
    }

    @Test(arguments: ServerTransport.all)
    func refreshesOnConfiguredStatusesWithACustomScheme(transport: ServerTransport) async throws {
        try await withTestServer { server in
            var policy = AuthenticationInterceptor<String>.Policy()
            policy.refreshStatuses = [403]
            let auth = AuthenticationInterceptor<String>(
                credential: "old", policy: policy,
                apply: { key, request in
                    request.headerFields[HTTPField.Name("X-Api-Key")!] = key
                }, refresh: { _ in "new" })
            let client = transport.client(interceptors: [auth])
            let response = try await client.send(Request(url: server.url("/flaky/\(uniqueKey())/1?status=403")))
            #expect(response.status == .ok)
            #expect(server.receivedRequests.map { $0.header("x-api-key") } == ["old", "new"])
        }
    }

    @Test(arguments: ServerTransport.all)
    func a401ThrownByAnInnerValidationIsRefreshedToo(transport: ServerTransport) async throws {
        try await withTestServer { server async throws in
            let auth = AuthenticationInterceptor.bearer(token: "expired") { _ in "fresh" }
            let client = transport.client(interceptors: [auth, ValidationInterceptor()])
            #expect(try await client.send(Request(url: server.url("/bearer?token=fresh"))).status == .ok)
            #expect(auth.refreshCount == 1)
            let refused = AuthenticationInterceptor.bearer(token: "expired") { _ in "wrong" }
            let error = await #expect(throws: CourierError.self) {
                try await transport.client(interceptors: [refused, ValidationInterceptor()]).send(
                    Request(url: server.url("/bearer?token=fresh")))
            }
            #expect(error?.code == .unacceptableStatus)
            #expect(error?.response?.status == .unauthorized)
        }
    }

    @Test(arguments: ServerTransport.all)
    func aOneShotBodyIsNotResentAfterARefresh(transport: ServerTransport) async throws {
        try await withTestServer { server in
            let auth = AuthenticationInterceptor.bearer(token: "expired") { _ in "fresh" }
            let chunks = AsyncStream<Data> {
                $0.yield(Data("once".utf8))
                $0.finish()
            }
            let request = try server.url("/bearer?token=fresh").buildRequest {
                Method.POST
                RequestBody.stream(chunks, length: 4)
            }
            let error = await #expect(throws: CourierError.self) {
                try await transport.client(interceptors: [auth]).send(request)
            }
            #expect(error?.code == .bodyNotReplayable)
            #expect(error?.response?.status == .unauthorized)
            #expect(server.hits("/bearer") == 1)
            #expect(auth.credential == "fresh")
        }
    }
}
