import Synchronization

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The flag a one-shot body flips when it is first sent.
private final class OneShotGate: Sendable {
    let claimed = Atomic(false)
}

/// Where a streamed body's bytes come from: a factory that can start over, or a sequence usable once.
package struct BodyStreamSource: Sendable {
    let isRestartable: Bool
    private let gate: OneShotGate?
    private let makeIteratorBody: @Sendable () -> RequestBody.Chunks.AsyncIterator

    /// A body that makes a fresh sequence each time it is sent.
    static func restartable<Chunks: AsyncSequence & Sendable>(
        _ makeChunks: @escaping @Sendable () -> Chunks
    ) -> BodyStreamSource where Chunks.Element == Data {
        BodyStreamSource(isRestartable: true, gate: nil) {
            var iterator = makeChunks().makeAsyncIterator()
            return RequestBody.Chunks.AsyncIterator { try await iterator.next(isolation: #isolation) }
        }
    }

    /// A body whose sequence may be sent once; claiming it a second time throws `bodyNotReplayable`.
    static func oneShot<Chunks: AsyncSequence & Sendable>(_ chunks: Chunks) -> BodyStreamSource
    where Chunks.Element == Data {
        BodyStreamSource(isRestartable: false, gate: OneShotGate()) {
            var iterator = chunks.makeAsyncIterator()
            return RequestBody.Chunks.AsyncIterator { try await iterator.next(isolation: #isolation) }
        }
    }

    /// Marks the body as being sent; a one-shot body refuses a second claim.
    func claim() throws {
        guard let gate else { return }
        if gate.claimed.exchange(true, ordering: .acquiringAndReleasing) {
            throw CourierError(
                .bodyNotReplayable,
                "the one-shot stream body was already sent and cannot be sent again",
                source: "RequestBody.stream")
        }
    }

    func makeIterator() -> RequestBody.Chunks.AsyncIterator { makeIteratorBody() }
}
