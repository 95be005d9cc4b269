public import CoreMetrics
import HTTPTypes

/// Records every exchange through swift-metrics: a request counter, a failure counter by error
/// code, and a duration timer, under whatever backend the process bootstrapped (Prometheus, StatsD…).
///
/// With the default prefix the metrics are:
/// - `courier_requests_total` (counter; `method`, `status`: the status code, or `error`);
/// - `courier_request_failures_total` (counter; `method`, `code`: the `CourierError.Code`);
/// - `courier_request_duration_seconds` (timer; `method`), recorded in nanoseconds;
/// - `courier_request_phase_seconds` (timer; `method`, `phase`: `queued`, `dns`, `connect`,
///   `tls`, `send`, `wait`), one recording per phase the transport measured up to the response
///   head (``ResponseMetrics``); a phase it did not measure is not recorded.
///
/// The duration runs until the stages after this one return: for a streamed body, until its head arrives.
/// Dimensions deliberately leave out the URL and host, whose values are unbounded. Place it
/// outside retry to measure what callers see, or inside to measure each attempt.
public struct MetricsInterceptor: Interceptor {
    /// The start of every metric's label.
    public let prefix: String
    /// Dimensions added to every metric, such as `[("client", "billing")]`.
    public let dimensions: [(String, String)]
    private let factory: (any MetricsFactory)?

    /// Records under `prefix`, with `dimensions` on every metric, through `factory`
    /// (the bootstrapped `MetricsSystem.factory` when `nil`).
    public init(prefix: String = "courier", dimensions: [(String, String)] = [], factory: (any MetricsFactory)? = nil) {
        self.prefix = prefix
        self.dimensions = dimensions
        self.factory = factory
    }

    public func intercept(_ request: Request, context: InterceptorContext, next: Next) async throws -> Response {
        let factory = self.factory ?? MetricsSystem.factory
        let method = [("method", request.method.rawValue)]
        let start = ContinuousClock.now
        defer {
            let elapsed = ContinuousClock.now - start
            CoreMetrics.Timer(
                label: "\(prefix)_request_duration_seconds", dimensions: dimensions + method, factory: factory
            )
            .recordNanoseconds(
                elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000)
        }
        do {
            let response = try await next(request)
            for (phase, duration) in response.metrics.phases {
                guard let duration, phase != "receive" else { continue }
                CoreMetrics.Timer(
                    label: "\(prefix)_request_phase_seconds", dimensions: dimensions + method + [("phase", phase)],
                    factory: factory
                )
                .recordNanoseconds(
                    duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000)
            }
            Counter(
                label: "\(prefix)_requests_total",
                dimensions: dimensions + method + [("status", String(response.status.code))],
                factory: factory
            ).increment()
            return response
        } catch {
            let code = (error as? CourierError)?.code.description ?? "unknown"
            Counter(
                label: "\(prefix)_requests_total", dimensions: dimensions + method + [("status", "error")],
                factory: factory
            )
            .increment()
            Counter(
                label: "\(prefix)_request_failures_total", dimensions: dimensions + method + [("code", code)],
                factory: factory
            )
            .increment()
            throw error
        }
    }
}
