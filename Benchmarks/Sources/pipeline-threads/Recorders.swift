import Courier
import Foundation
import HTTPTypes

/// A no-op interceptor that notes its thread before and after `next`.
struct RecordingInterceptor: Interceptor {
    let log: ThreadLog

    nonisolated(nonsending) func intercept(_ request: Request, context: InterceptorContext, next: Next) async throws -> Response {
        log.record("NoopInterceptor (nonisolated(nonsending)), before next")
        let response = try await next(request)
        log.record("NoopInterceptor (nonisolated(nonsending)), after next")
        return response
    }
}

/// The in-memory transport of the benchmarks, noting its thread.
struct RecordingTransport: Transport {
    let log: ThreadLog

    func send(_ request: Request, context: TransportContext) async throws -> Response {
        log.record("transport.send")
        return Response(status: .ok, headerFields: [:], body: Data("{}".utf8), request: request)
    }
}

extension Client {
    /// A client whose every stage notes its thread in `log`: a struct interceptor, a `ClosureInterceptor`, the transport.
    static func recording(into log: ThreadLog) -> Client {
        let closure = ClosureInterceptor("closure") { request, _, next in
            log.record("ClosureInterceptor body")
            return try await next(request)
        }
        return Client(transport: RecordingTransport(log: log), interceptors: [RecordingInterceptor(log: log), closure])
    }
}
