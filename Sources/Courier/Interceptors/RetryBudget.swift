import Synchronization

/// A token bucket shared by every request through one retry interceptor, so an outage does not
/// multiply the load on the server.
///
/// Each request deposits `depositPerRequest` tokens (up to `maxTokens`); each retry withdraws
/// one. With the defaults, retries stay below about 20% of requests once the initial ten tokens
/// are spent, as Finagle's `RetryBudget` and gRPC's retry throttling do: when everything fails,
/// a client sends about 1.2 requests per call instead of `maxAttempts`.
public final class RetryBudget: Sendable {
    /// The most tokens the bucket holds, and what it starts with.
    public let maxTokens: Double
    /// What each new request adds.
    public let depositPerRequest: Double
    private let tokens: Protected<Double>

    /// A budget starting full with `maxTokens`, refilled by `depositPerRequest` per request.
    public init(maxTokens: Double = 10, depositPerRequest: Double = 0.2) {
        self.maxTokens = max(0, maxTokens)
        self.depositPerRequest = max(0, depositPerRequest)
        self.tokens = Protected(max(0, maxTokens))
    }

    /// A budget that never runs out, for clients that must retry regardless of load.
    public static var unlimited: RetryBudget { RetryBudget(maxTokens: .infinity, depositPerRequest: 0) }

    /// How many retries the budget allows right now.
    public var availableRetries: Int {
        tokens.withLock { $0.isInfinite ? .max : Int($0.rounded(.down)) }
    }

    /// Credits a new request (not a retry).
    func deposit() {
        tokens.withLock { $0 = min(maxTokens, $0 + depositPerRequest) }
    }

    /// Takes a token for a retry; `false` when the budget is spent.
    func withdraw() -> Bool {
        tokens.withLock { tokens in
            guard tokens >= 1 else { return false }
            tokens -= 1
            return true
        }
    }
}
