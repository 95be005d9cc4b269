/// How long to wait before each retry: exponential growth, a ceiling, and random jitter.
///
/// With full jitter (the default) the wait before retry `n` is a random point in
/// `0 ..< min(maximum, initial × multiplierⁿ⁻¹)`, which spreads clients that failed together so
/// they do not come back together (AWS's "Exponential Backoff and Jitter" measured it best).
public struct Backoff: Sendable, Hashable {
    /// How the random factor is applied to the exponential delay.
    public enum Jitter: Sendable, Hashable {
        /// The exact exponential delay; clients that failed together retry together.
        case none
        /// A random delay between zero and the exponential delay.
        case full
        /// Half the exponential delay plus a random part of the other half; never much shorter.
        case equal
    }

    /// The delay before the first retry, before jitter.
    public var initial: Duration
    /// How much the delay grows with each retry.
    public var multiplier: Double
    /// The longest delay, before jitter.
    public var maximum: Duration
    /// How randomness is applied.
    public var jitter: Jitter

    /// A backoff starting at `initial`, growing by `multiplier` up to `maximum`.
    public init(
        initial: Duration = .milliseconds(200), multiplier: Double = 2, maximum: Duration = .seconds(10),
        jitter: Jitter = .full
    ) {
        self.initial = initial
        self.multiplier = multiplier
        self.maximum = maximum
        self.jitter = jitter
    }

    /// The wait before retry number `retry` (from 1), with `random` a number in `0..<1`.
    public func delay(beforeRetry retry: Int, random: Double) -> Duration {
        let grown = initial.seconds * Self.power(multiplier, max(0, retry - 1))
        let ceiling = min(grown, maximum.seconds)
        let fraction = min(max(random, 0), 1)
        let seconds =
            switch jitter {
            case .none: ceiling
            case .full: ceiling * fraction
            case .equal: ceiling / 2 + ceiling / 2 * fraction
            }
        return .roundedSeconds(seconds)
    }

    private static func power(_ base: Double, _ exponent: Int) -> Double {
        var result = 1.0
        for _ in 0..<min(exponent, 64) { result *= base }
        return result.isFinite ? result : .greatestFiniteMagnitude
    }
}

extension Duration {
    /// `seconds` rounded to the nearest nanosecond, so `0.1` is exactly 100 ms.
    static func roundedSeconds(_ seconds: Double) -> Duration {
        let nanoseconds = (seconds * 1e9).rounded()
        return nanoseconds >= Double(Int64.max) ? .seconds(Int64.max / 1_000_000_000) : .nanoseconds(Int64(nanoseconds))
    }
}
