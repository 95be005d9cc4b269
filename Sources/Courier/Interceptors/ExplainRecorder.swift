import Synchronization

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Collects what each stage of a client made with `Client.explaining()` does, send by send.
///
/// Every send through that client is recorded under its request ID; `explanations` lists them
/// in the order they started and `last` is the most recent.
public final class ExplainRecorder: Sendable {
    private struct Record {
        var requestID: String
        var request: String
        var started: ContinuousClock.Instant
        var steps: [Explanation.Step] = []
    }

    private let records = Protected<[Record]>([])
    /// What is hidden in recorded headers and URLs.
    public let redaction: Redaction

    /// Creates a recorder that hides what `redaction` names.
    public init(redaction: Redaction = Redaction()) {
        self.redaction = redaction
    }

    /// Every send recorded so far, oldest first.
    public var explanations: [Explanation] {
        records.withLock { $0.map { Explanation(request: $0.request, steps: $0.steps) } }
    }

    /// The most recent send, if any.
    public var last: Explanation? { explanations.last }

    /// The send with request ID `requestID` (`InterceptorContext.requestID`).
    public func explanation(for requestID: String) -> Explanation? {
        records.withLock { records in
            records.last { $0.requestID == requestID }.map { Explanation(request: $0.request, steps: $0.steps) }
        }
    }

    /// Forgets everything recorded.
    public func reset() {
        records.withLock { $0.removeAll() }
    }

    /// Opens a step for a stage that just received `request`; returns where to update it.
    func begin(
        stage: String, depth: Int, attempt: Int, request: Request, requestID: String,
        at start: ContinuousClock.Instant
    ) -> StepHandle {
        records.withLock { records in
            let recordIndex: Int
            if let index = records.lastIndex(where: { $0.requestID == requestID }) {
                recordIndex = index
            } else {
                let summary = "\(request.method) \(redaction.redacting(request.url).absoluteString)"
                records.append(Record(requestID: requestID, request: summary, started: start))
                recordIndex = records.count - 1
            }
            let offset = (start - records[recordIndex].started).milliseconds
            records[recordIndex].steps.append(
                Explanation.Step(
                    stage: stage, depth: depth, attempt: attempt, startMilliseconds: offset, durationMilliseconds: 0,
                    ownMilliseconds: 0, nextCalls: 0, requestChanges: [], responseChanges: [], outcome: "running"))
            return StepHandle(record: recordIndex, step: records[recordIndex].steps.count - 1)
        }
    }

    /// Changes a step already begun.
    func update(_ handle: StepHandle, _ change: (inout Explanation.Step) -> Void) {
        records.withLock { records in
            guard handle.record < records.count, handle.step < records[handle.record].steps.count else { return }
            change(&records[handle.record].steps[handle.step])
        }
    }

    /// Where a step lives in the recorder.
    struct StepHandle: Sendable {
        let record: Int
        let step: Int
    }
}

extension Duration {
    /// This duration in milliseconds, to the microsecond, so recorded timings read cleanly in JSON.
    var milliseconds: Double { (seconds * 1_000_000).rounded() / 1000 }
}
