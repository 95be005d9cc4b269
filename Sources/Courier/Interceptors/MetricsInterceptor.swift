public import CoreMetrics
import HTTPTypes

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Records every exchange through swift-metrics: a request counter, a failure counter by error
/// code, and a duration timer, under whatever backend the process bootstrapped (Prometheus, StatsD…).
///
/// With the default prefix the metrics are:
/// - `courier_requests_total` (counter; `method`, `status`: the status code, or `error`);
/// - `courier_request_failures_total` (counter; `method`, `code`: the `CourierError.Code`);
/// - `courier_request_duration_seconds` (timer; `method`), recorded in nanoseconds;
/// - `courier_request_phase_seconds` (timer; `method`, `phase`: `queued`, `dns`, `connect`,
///   `tls`, `send`, `wait`, `receive`), one recording per phase the transport measured
///   (``ResponseMetrics``); a phase it did not measure is not recorded. `receive` is recorded when
///   the body ends, which for a streamed body is when its reader reaches the end.
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
        // Recorded by synchronous functions, so a send in flight holds only the start time in its
        // frame, not the metrics' labels and dimensions (1,088 bytes when they were inline).
        let start = ContinuousClock.now
        do {
            return recording(try await next(request), of: request, since: start)
        } catch {
            recordFailure(error, of: request, since: start)
            throw error
        }
    }

    /// Records the exchange's phases and count, and its duration; a streamed body's receive phase
    /// is recorded when the stream ends.
    private func recording(_ response: Response, of request: Request, since start: ContinuousClock.Instant) -> Response
    {
        let factory = self.factory ?? MetricsSystem.factory
        let method = [("method", request.method.rawValue)]
        var response = response
        let phases = PhaseTimers(
            label: "\(prefix)_request_phase_seconds", dimensions: dimensions + method, factory: factory)
        for (phase, duration) in response.metrics.phases where phase != "receive" {
            phases.record(phase, duration)
        }
        if let stream = response.bodyStream {
            response.bodyStream = stream.observed(
                by: ReceivePhaseRecorder(stream: stream, atHead: response.metrics.bodyTransfer, phases: phases))
        } else {
            phases.record("receive", response.metrics.bodyTransfer)
        }
        Counter(
            label: "\(prefix)_requests_total",
            dimensions: dimensions + method + [("status", String(response.status.code))],
            factory: factory
        ).increment()
        recordDuration(since: start, method: method, factory: factory)
        return response
    }

    /// Counts a failed exchange, by its error's code, and records its duration.
    private func recordFailure(_ error: any Error, of request: Request, since start: ContinuousClock.Instant) {
        let factory = self.factory ?? MetricsSystem.factory
        let method = [("method", request.method.rawValue)]
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
        recordDuration(since: start, method: method, factory: factory)
    }

    private func recordDuration(
        since start: ContinuousClock.Instant, method: [(String, String)], factory: any MetricsFactory
    ) {
        let elapsed = ContinuousClock.now - start
        CoreMetrics.Timer(
            label: "\(prefix)_request_duration_seconds", dimensions: dimensions + method, factory: factory
        )
        .recordNanoseconds(elapsed.clampedNanoseconds)
    }
}

/// `courier_request_phase_seconds` for one exchange: one timer per phase, made when recorded.
private struct PhaseTimers: Sendable {
    let label: String
    let dimensions: [(String, String)]
    let factory: any MetricsFactory

    func record(_ phase: String, _ duration: Duration?) {
        guard let duration else { return }
        CoreMetrics.Timer(label: label, dimensions: dimensions + [("phase", phase)], factory: factory)
            .recordNanoseconds(duration.clampedNanoseconds)
    }
}

/// Records the body's phase when a streamed body ends: the transport knows it only then, in the
/// stream's metrics, or already at the head (`atHead`) when the body ended in the head's round.
private struct ReceivePhaseRecorder: ResponseBodyObserver {
    let stream: ResponseBodyStream
    let atHead: Duration?
    let phases: PhaseTimers

    func received(_ chunk: Data) {}

    func ended(with error: CourierError?) throws(CourierError) {
        guard error == nil else { return }
        phases.record("receive", stream.metrics?.bodyTransfer ?? atHead)
    }
}
