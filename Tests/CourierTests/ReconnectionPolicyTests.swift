import Testing

@testable import Courier

@Suite("Server-Sent Events reconnection policy")
struct ReconnectionPolicyTests {
    @Test func theDefaultWaitsThreeSecondsEveryTime() {
        let policy = ReconnectionPolicy()
        #expect(
            (1...5).map { policy.delay(beforeReconnect: $0, serverRetry: nil) }
                == Array(repeating: .seconds(3), count: 5))
        #expect(policy.maxReconnectsWithoutEvent == nil)
    }

    @Test func theServersRetryReplacesTheDelay() {
        #expect(ReconnectionPolicy().delay(beforeReconnect: 1, serverRetry: .milliseconds(250)) == .milliseconds(250))
        #expect(ReconnectionPolicy().delay(beforeReconnect: 1, serverRetry: .zero) == .zero)
    }

    @Test func backoffMultipliesEachReconnectWithoutAnEventUpToTheCap() {
        var policy = ReconnectionPolicy()
        policy.delay = .milliseconds(100)
        policy.backoff = 2
        policy.maximumDelay = .milliseconds(500)
        let delays = (1...6).map { policy.delay(beforeReconnect: $0, serverRetry: nil) }
        #expect(delays == [100, 200, 400, 500, 500, 500].map { .milliseconds($0) })
    }

    @Test func theCapAlsoBoundsTheServersRetry() {
        var policy = ReconnectionPolicy()
        policy.maximumDelay = .seconds(30)
        #expect(policy.delay(beforeReconnect: 1, serverRetry: .seconds(3600)) == .seconds(30))
    }

    @Test func anUncappedBackoffStopsGrowingInsteadOfOverflowing() {
        var policy = ReconnectionPolicy()
        policy.backoff = 10
        #expect(policy.delay(beforeReconnect: 10_000, serverRetry: nil) == .seconds(24 * 60 * 60))
    }

    @Test func neverAllowsNoReconnection() {
        #expect(ReconnectionPolicy.never.maxReconnectsWithoutEvent == 0)
    }
}
