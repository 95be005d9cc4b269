/// One client a load run sends through: how to send one request, and how to free the client.
///
/// Scale mode makes a client per cycle and frees it at the cycle's end (`ScaleRun`), so a load
/// run is handed a maker of these rather than one send closure. `send` is the same closure the
/// plain run calls, so wrapping it adds nothing per request.
public struct LoadClient: Sendable {
    /// Sends one request and reads its whole response (body included), throwing when the response
    /// is not what the scenario expects.
    public var send: @Sendable () async throws -> Void
    /// Frees the client: closes its connections and stops its threads (AsyncHTTPClient's
    /// `shutdown()`, CurlTransport's), so that nothing of it is left when it returns; an error
    /// fails the run, as any other would.
    public var shutdown: @Sendable () async throws -> Void

    /// A client that sends with `send` and is freed by `shutdown`.
    public init(
        send: @escaping @Sendable () async throws -> Void, shutdown: @escaping @Sendable () async throws -> Void
    ) {
        self.send = send
        self.shutdown = shutdown
    }
}
