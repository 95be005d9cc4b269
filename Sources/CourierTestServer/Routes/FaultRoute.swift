import Foundation

extension Route {
    /// `/fault/{effect}/{phase}`, any method: injects `ConnectionFault(effect, at: phase)`, so any
    /// client can trigger a fault by URL, e.g. `/fault/reset/midResponseBody`.
    ///
    /// `effect` is `close`, `reset`, `stall` or `malformed`; `phase` is `afterRequest`,
    /// `midRequestBody`, `atResponseStart` or `midResponseBody` (`atConnect` happens before any
    /// URL is read: use `TestServer.planFaults(_:)`, this route answers it with 400).
    /// The response being cut is `body_size` bytes of the `/bytes` pattern (default 1024).
    ///
    /// Query: `after_bytes` moves the cut (see `ConnectionFault.Phase`); `chunked=true|false`
    /// picks the body framing, chunked by default only for `malformed`, whose garbage then breaks
    /// the chunk framing instead of passing for body bytes.
    public static let fault = Route(
        "/fault/{effect}/{phase}",
        requestBody: { request in
            guard let fault = try? requestedFault(request), fault.phase == .midRequestBody else { return .collect }
            return .fault(fault)
        }
    ) { request in
        let fault = try requestedFault(request)
        guard fault.phase != .atConnect else {
            throw RouteInputError("atConnect happens before the request is read: plan it with TestServer.planFaults")
        }
        let size = try request.integer(query: "body_size", default: 1024, in: 0...maximumBytesCount)
        let chunked = request.query("chunked").map { $0 == "true" } ?? (fault.effect == .malformed)
        let body = StreamedBody(length: chunked ? nil : size, stream: CountingBytesStream(count: size))
        return TestServerResponse(headers: [("Content-Type", "application/octet-stream")], stream: body).injecting(
            fault)
    }

    private static func requestedFault(_ request: TestServerRequest) throws -> ConnectionFault {
        guard let effect = request.parameters["effect"].flatMap(ConnectionFault.Effect.init(rawValue:)) else {
            throw RouteInputError("effect must be one of \(ConnectionFault.Effect.allCases.map(\.rawValue))")
        }
        guard let phase = request.parameters["phase"].flatMap(ConnectionFault.Phase.init(rawValue:)) else {
            throw RouteInputError("phase must be one of \(ConnectionFault.Phase.allCases.map(\.rawValue))")
        }
        let afterBytes = try request.query("after_bytes").map { _ in
            try request.integer(query: "after_bytes", default: 0, in: 0...Int.max)
        }
        return ConnectionFault(effect, at: phase, afterBytes: afterBytes)
    }
}
