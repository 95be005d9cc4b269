/// How long the whole exchange may take, from sending the first byte to receiving the last.
///
/// `Timeout(30)` is thirty seconds; `Timeout(.milliseconds(250))` reads as written. Zero, negative
/// and non-finite values fail the build.
public struct Timeout: RequestBuildable, Sendable {
    /// The limit.
    public let duration: Duration

    /// A limit of `duration`.
    public init(_ duration: Duration) { self.duration = duration }

    /// A limit of `seconds` seconds.
    public init(_ seconds: Double) {
        self.duration =
            seconds.isFinite ? .nanoseconds(Int64(clamping: Int((seconds * 1e9).rounded(.towardZero)))) : .zero
    }

    public func apply(to draft: inout RequestDraft) throws {
        guard duration > .zero else {
            throw CourierError.invalidRequest("a timeout must be a positive, finite duration", block: "Timeout")
        }
        draft.timeout = duration
    }
}
