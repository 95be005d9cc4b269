import HTTPTypes
public import Tracing

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Wraps each exchange in a client span of swift-distributed-tracing and propagates its context
/// to the server in the request headers (W3C `traceparent`, with a W3C tracer such as swift-otel's).
///
/// The span is named after the method (`GET`), as OpenTelemetry's HTTP conventions ask, and carries
/// `http.request.method`, `url.full` (redacted), `server.address`, `server.port` and
/// `http.response.status_code`; a 4xx or 5xx status or a thrown error marks it as failed, with
/// `error.type`. The span is the parent of anything inner stages start (`ServiceContext.current`),
/// and ends when the stages after this one return: with the response head for a streamed body.
///
/// Place it outside retry to get one span per call, or inside to get one per attempt.
public struct TracingInterceptor: Interceptor {
    private let tracer: (any Tracer)?
    private let redaction: Redaction

    /// Traces with `tracer`, or the bootstrapped `InstrumentationSystem.tracer` when `nil`;
    /// `redaction` hides secrets in the recorded URL.
    public init(tracer: (any Tracer)? = nil, redaction: Redaction = Redaction()) {
        self.tracer = tracer
        self.redaction = redaction
    }

    public func intercept(_ request: Request, context: InterceptorContext, next: Next) async throws -> Response {
        // The span is started and ended by synchronous functions, so a send in flight holds only the
        // span in its frame, not the attributes' temporaries (1,136 bytes when they were inline).
        let (span, traced) = startSpan(for: request)
        do {
            let response = try await ServiceContext.$current.withValue(span.context) {
                try await next(traced)
            }
            Self.end(span, with: response)
            return response
        } catch {
            Self.end(span, failingWith: error)
            throw error
        }
    }

    /// The request's client span, and the request carrying its context in the headers.
    private func startSpan(for request: Request) -> (any Span, Request) {
        let tracer = self.tracer ?? InstrumentationSystem.tracer
        let span = tracer.startSpan(request.method.rawValue, ofKind: .client)
        span.attributes["http.request.method"] = request.method.rawValue
        span.attributes["url.full"] = redaction.redacting(request.url).absoluteString
        if let host = request.host { span.attributes["server.address"] = host }
        if let port = request.port { span.attributes["server.port"] = port }
        var traced = request
        tracer.inject(span.context, into: &traced.headerFields, using: HTTPFieldsInjector())
        return (span, traced)
    }

    /// Ends `span` with the response's status, the transport's phases as events and the peer.
    private static func end(_ span: any Span, with response: Response) {
        span.attributes["http.response.status_code"] = response.status.code
        // One event per phase the transport measured up to the head, carrying its duration.
        for (phase, duration) in response.metrics.phases {
            guard let duration, phase != "receive" else { continue }
            var attributes = SpanAttributes()
            attributes["courier.phase.duration_ms"] = duration.milliseconds
            span.addEvent(SpanEvent(name: "courier.\(phase)", attributes: attributes))
        }
        if let address = response.metrics.remoteAddress { span.attributes["network.peer.address"] = address }
        if let version = response.metrics.httpVersion { span.attributes["network.protocol.version"] = version }
        if response.status.code >= 400 {
            span.attributes["error.type"] = String(response.status.code)
            span.setStatus(SpanStatus(code: .error))
        }
        span.end()
    }

    /// Ends `span` as failed with `error`.
    private static func end(_ span: any Span, failingWith error: any Error) {
        span.attributes["error.type"] = (error as? CourierError)?.code.description ?? "unknown"
        span.recordError(error)
        span.setStatus(SpanStatus(code: .error))
        span.end()
    }
}
