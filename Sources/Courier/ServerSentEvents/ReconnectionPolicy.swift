#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// When and how often an event stream reconnects after its connection ends.
///
/// An `EventStream` reconnects, as an `EventSource` does, when the stream ends or the connection
/// fails (`cannotConnect`, `timedOut`, `invalidResponse`). It waits the server's `retry` delay,
/// else `delay`; each further reconnection in a row that brings no event multiplies the wait by
/// `backoff`, up to `maximumDelay`.
///
/// ```swift
/// var policy = ReconnectionPolicy()
/// policy.backoff = 2
/// policy.maximumDelay = .seconds(30)
/// for try await event in client.events(request, reconnection: policy) { … }
/// ```
public struct ReconnectionPolicy: Sendable {
    /// The wait before reconnecting while the server has sent no `retry` field.
    public var delay: Duration = .seconds(3)
    /// What each further reconnection without an event in between multiplies the wait by; 1 keeps it constant.
    public var backoff: Double = 1
    /// The longest wait, whatever the server's `retry` or the backoff says; `nil` for no cap.
    public var maximumDelay: Duration?
    /// How many reconnections in a row may bring no event before the stream gives up (with the
    /// last connection error, or quietly when the server closed cleanly); `nil` for no end.
    public var maxReconnectsWithoutEvent: Int?
    /// How the stream waits; replace it to test reconnection without real delays.
    public var sleep: @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }

    /// Reconnects forever, after 3 seconds or the server's `retry` delay, as browsers do.
    public init() {}

    /// Never reconnects: the stream ends when its first connection does.
    public static var never: ReconnectionPolicy {
        var policy = ReconnectionPolicy()
        policy.maxReconnectsWithoutEvent = 0
        return policy
    }

    /// The wait before the `reconnect`-th reconnection in a row without an event (from 1), given
    /// the server's `retry` delay if it sent one.
    func delay(beforeReconnect reconnect: Int, serverRetry: Duration?) -> Duration {
        let base = serverRetry ?? delay
        var wait = base
        if backoff > 1, reconnect > 1, base > .zero {
            let factor = pow(backoff, Double(reconnect - 1))
            let ceiling = (maximumDelay ?? Self.longestWait) / base
            wait = factor.isFinite && factor < ceiling ? base * factor : maximumDelay ?? Self.longestWait
        }
        if let maximumDelay, wait > maximumDelay { wait = maximumDelay }
        return wait
    }

    /// Where an uncapped backoff stops growing, so the arithmetic cannot overflow.
    private static let longestWait: Duration = .seconds(24 * 60 * 60)
}
