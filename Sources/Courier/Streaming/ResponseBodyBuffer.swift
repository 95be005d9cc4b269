#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The state of a streamed response body between a transport that writes chunks and a consumer
/// that reads them: a pure state machine, with no locks and no I/O, tested on its own.
///
/// Backpressure: once more than `highWatermark` bytes wait unread, `write` tells the producer to
/// pause; once the consumer has drained below `lowWatermark`, `read` tells it to resume. Every
/// method returns what its caller must do, outside any lock.
struct ResponseBodyBuffer {
    enum Termination: Equatable {
        /// The producer wrote the last chunk.
        case finished
        /// The producer failed (connection lost, limit exceeded…).
        case failed(CourierError.Code)
        /// The consumer stopped reading or was cancelled: the transfer should be aborted.
        case abandoned
    }

    enum WriteAction: Equatable {
        /// Keep producing.
        case produceMore
        /// Stop producing until `ReadAction.resumeProducer`.
        case pause
        /// Nobody will read: abort the transfer.
        case abort
    }

    enum ReadAction: Equatable {
        /// Return this chunk; resume the producer first when `resumeProducer` is set.
        case deliver(Data, resumeProducer: Bool)
        /// Nothing buffered yet: wait for the producer.
        case wait
        /// The body is complete.
        case end
        /// The body failed; throw.
        case fail
    }

    let highWatermark: Int
    let lowWatermark: Int
    private(set) var chunks: [Data] = []
    private var head = 0
    private(set) var bufferedBytes = 0
    private(set) var producerPaused = false
    private(set) var termination: Termination?

    init(highWatermark: Int, lowWatermark: Int) {
        self.highWatermark = max(1, highWatermark)
        self.lowWatermark = min(max(0, lowWatermark), self.highWatermark)
    }

    /// The producer offers `chunk`.
    mutating func write(_ chunk: Data) -> WriteAction {
        switch termination {
        case .abandoned?: return .abort
        case .finished?, .failed?: return .abort
        case nil: break
        }
        if !chunk.isEmpty {
            chunks.append(chunk)
            bufferedBytes += chunk.count
        }
        if bufferedBytes > highWatermark {
            producerPaused = true
            return .pause
        }
        return .produceMore
    }

    /// The producer ends the body, successfully or not; ignored once terminated.
    mutating func finish(_ outcome: Termination) {
        guard termination == nil else { return }
        termination = outcome
    }

    /// The consumer asks for the next chunk.
    mutating func read() -> ReadAction {
        if head < chunks.count {
            let chunk = chunks[head]
            chunks[head] = Data()
            head += 1
            if head > 64, head * 2 > chunks.count {
                chunks.removeFirst(head)
                head = 0
            }
            bufferedBytes -= chunk.count
            var resume = false
            if producerPaused, bufferedBytes <= lowWatermark, termination == nil {
                producerPaused = false
                resume = true
            }
            return .deliver(chunk, resumeProducer: resume)
        }
        switch termination {
        case nil: return .wait
        case .finished?: return .end
        case .failed?, .abandoned?: return .fail
        }
    }

    /// The consumer goes away before the end; returns whether the producer must be told to abort.
    mutating func abandon() -> Bool {
        guard termination == nil else { return false }
        termination = .abandoned
        chunks.removeAll()
        head = 0
        bufferedBytes = 0
        return true
    }
}
