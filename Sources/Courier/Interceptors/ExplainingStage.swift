import HTTPTypes
import Synchronization

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a recording wrapper shares with the probe after its stage: the request the stage
/// received, and what the stage passed to `next` and got back.
final class ExplainFrame: Sendable {
    /// The frame of the stage whose `next` is being called, for the probe that follows it.
    @TaskLocal static var current: ExplainFrame?

    struct Passes {
        var count = 0
        var downstream: Duration = .zero
        var lastSent: Request?
        var lastResponse: Response?
    }

    let passes = Protected(Passes())
}

/// Wraps one interceptor of a client made with `Client.explaining()`: records the request it
/// received, the response it returned, and how long it took.
struct ExplainingStage: Interceptor {
    let inner: any Interceptor
    let depth: Int
    let recorder: ExplainRecorder

    var name: String { inner.name }

    func intercept(_ request: Request, context: InterceptorContext, next: Next) async throws -> Response {
        let start = ContinuousClock.now
        let handle = recorder.begin(
            stage: inner.name, depth: depth, attempt: context.attempt, request: request,
            requestID: context.requestID, at: start)
        let frame = ExplainFrame()
        let diff = ExplainDiff(redaction: recorder.redaction)
        let result: Result<Response, any Error>
        do {
            result = .success(
                try await ExplainFrame.$current.withValue(frame) {
                    try await inner.intercept(request, context: context, next: next)
                })
        } catch {
            result = .failure(error)
        }
        let elapsed = ContinuousClock.now - start
        let passes = frame.passes.withLock { $0 }
        recorder.update(handle) { step in
            step.durationMilliseconds = elapsed.milliseconds
            step.ownMilliseconds = max(0, (elapsed - passes.downstream).milliseconds)
            step.nextCalls = passes.count
            step.requestChanges = passes.lastSent.map { diff.changes(from: request, to: $0) } ?? []
            switch result {
            case .success(let response):
                step.outcome = ExplainDiff.describe(response.status)
                step.responseChanges = passes.lastResponse.map { diff.changes(from: $0, to: response) } ?? []
            case .failure(let error):
                step.outcome = Self.describe(error, redaction: recorder.redaction, request: request)
            }
        }
        return try result.get()
    }

    static func describe(_ error: any Error, redaction: Redaction, request: Request) -> String {
        let text = (error as? CourierError).map { "\($0.code): \($0.message)" } ?? "\(error)"
        return "error " + redaction.scrubbing(text, secretsFrom: request.headerFields, url: request.url)
    }
}

/// Follows each wrapped stage: notes the request the stage passed on, the response it got back,
/// and the time spent downstream.
struct ExplainProbe: Interceptor {
    /// The name of the stage this probe follows, so errors are attributed as without explaining.
    let name: String

    func intercept(_ request: Request, context: InterceptorContext, next: Next) async throws -> Response {
        guard let frame = ExplainFrame.current else { return try await next(request) }
        let start = ContinuousClock.now
        frame.passes.withLock { passes in
            passes.count += 1
            passes.lastSent = request
            passes.lastResponse = nil
        }
        do {
            let response = try await ExplainFrame.$current.withValue(nil) { try await next(request) }
            frame.passes.withLock { passes in
                passes.downstream += ContinuousClock.now - start
                passes.lastResponse = response
            }
            return response
        } catch {
            frame.passes.withLock { $0.downstream += ContinuousClock.now - start }
            throw error
        }
    }
}

/// The last stage of an explaining client: records the redirects-and-transport stage as a step.
struct ExplainTransportProbe: Interceptor {
    let depth: Int
    let recorder: ExplainRecorder
    /// The client's transport, whose type name and unapplied hints are recorded on the step.
    let transport: any Transport

    var name: String { "transport" }

    func intercept(_ request: Request, context: InterceptorContext, next: Next) async throws -> Response {
        let start = ContinuousClock.now
        let handle = recorder.begin(
            stage: "transport", depth: depth, attempt: context.attempt, request: request,
            requestID: context.requestID, at: start)
        let transportName = String(describing: type(of: transport))
        let ignoredHints = request.hintsIgnored(by: transport).map(\.rawValue)
        recorder.update(handle) { step in
            step.transport = transportName
            if !ignoredHints.isEmpty { step.ignoredHints = ignoredHints }
        }
        do {
            let response = try await next(request)
            let elapsed = ContinuousClock.now - start
            recorder.update(handle) { step in
                step.durationMilliseconds = elapsed.milliseconds
                step.outcome = ExplainDiff.describe(response.status)
                step.timeline = Explanation.Timeline(response.metrics)
                if response.request.url != request.url {
                    step.requestChanges = [
                        .init(
                            .url, from: recorder.redaction.redacting(request.url).absoluteString,
                            to: recorder.redaction.redacting(response.request.url).absoluteString)
                    ]
                }
            }
            return response
        } catch {
            let elapsed = ContinuousClock.now - start
            recorder.update(handle) { step in
                step.durationMilliseconds = elapsed.milliseconds
                step.outcome = ExplainingStage.describe(error, redaction: recorder.redaction, request: request)
            }
            throw error
        }
    }
}
