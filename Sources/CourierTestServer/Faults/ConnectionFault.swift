public import Foundation

/// A way for the server to misbehave on one connection: an effect applied at a phase of the exchange.
///
/// Modelled on the socket policies of OkHttp's MockWebServer, split in two axes so every
/// combination can be asked for: `ConnectionFault(.reset, at: .midResponseBody)` resets the
/// connection after the headers and part of the body went out.
public struct ConnectionFault: Sendable, Hashable, CustomStringConvertible {
    /// What happens to the connection.
    public enum Effect: String, Sendable, CaseIterable {
        /// Send FIN: the output is shut down, whatever the client still sends is read and dropped.
        case close
        /// Send RST: `SO_LINGER` 0, then close, so the client sees "connection reset by peer".
        case reset
        /// Go silent: nothing more is read or written, the socket stays open until the server shuts down.
        case stall
        /// Write `ConnectionFault.garbage`, then close as `close` does.
        case malformed
    }

    /// When the effect happens.
    public enum Phase: String, Sendable, CaseIterable {
        /// Right after accepting, before reading anything; only a fault plan can ask for it.
        case atConnect
        /// After the whole request head and body arrived, before any response byte.
        case afterRequest
        /// After `afterBytes` request body bytes arrived (default 1), while the client is still sending.
        case midRequestBody
        /// After `afterBytes` bytes of the status line and headers went out (default half of them).
        case atResponseStart
        /// After the headers and `afterBytes` bytes of the body went out (default half of the body).
        case midResponseBody
    }

    /// The bytes `malformed` writes: a NUL inside a header line, which every HTTP/1.1 parser must reject.
    ///
    /// Written where a status line is due, they read as a broken status line; after part of the
    /// head, as a header with a NUL byte; inside a chunked body, as an invalid chunk size.
    public static let garbage = Data("\u{0}\u{1}\u{7f} not HTTP\r\n\r\n".utf8)

    /// What happens.
    public var effect: Effect
    /// When it happens.
    public var phase: Phase
    /// How far the exchange gets before the effect, in the phase's unit; `nil` for the phase's default.
    public var afterBytes: Int?

    /// Creates a fault; `afterBytes` only matters for the `mid…` phases and `atResponseStart`.
    public init(_ effect: Effect, at phase: Phase, afterBytes: Int? = nil) {
        self.effect = effect
        self.phase = phase
        self.afterBytes = afterBytes
    }

    public var description: String {
        "\(effect.rawValue) \(phase.rawValue)" + (afterBytes.map { " after \($0) bytes" } ?? "")
    }
}
