import Foundation
import NIOConcurrencyHelpers

/// What `/inflight/{ms}` answers: how many requests it was handling, this one included.
public struct InFlightCount: Codable, Sendable, Equatable {
    /// Requests being handled when this one arrived, itself included.
    public var inFlight: Int
    /// The most requests handled at once since the server started, as this one left.
    public var maxInFlight: Int
}

extension Route {
    /// `/inflight/{ms}`, any method: holds the request for `ms` milliseconds (at most 10000),
    /// then answers `InFlightCount` as JSON, so a test can see how many requests a client had in
    /// flight at once. Each call of `inFlight()` counts on its own.
    public static func inFlight() -> Route {
        let counts = NIOLockedValueBox((current: 0, max: 0))
        return Route("/inflight/{ms}") { request in
            let milliseconds = try request.integer(parameter: "ms", in: 0...10_000)
            let current = counts.withLockedValue { counts in
                counts.current += 1
                counts.max = Swift.max(counts.max, counts.current)
                return counts.current
            }
            try? await Task.sleep(for: .milliseconds(milliseconds))
            let most = counts.withLockedValue { counts in
                counts.current -= 1
                return counts.max
            }
            return try .json(InFlightCount(inFlight: current, maxInFlight: most))
        }
    }
}
