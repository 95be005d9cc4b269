import Synchronization

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// Sees a response body pass on its way to the reader, for recorders that must neither hold the
/// body back nor keep a copy the reader waits for (`ResponseBodyStream.observed(by:)`).
///
/// Called on the reader's task, between its reads; must not block.
package protocol ResponseBodyObserver: Sendable {
    /// A chunk the reader is about to receive.
    func received(_ chunk: Data)
    /// The body is over, once: `nil` at its end, else why it stopped (a transfer error, a
    /// discard, a reader that gave up). An error thrown at the end reaches the reader instead of
    /// the end, so a recorder that cannot save says so where the caller is looking.
    func ended(with error: CourierError?) throws(CourierError)
}

extension ResponseBodyStream {
    /// An observed stream's shared part: the stream it reads and the observer, told of the end once.
    final class ObservedBody: Sendable {
        let inner: ResponseBodyStream
        private let observer: any ResponseBodyObserver
        private let hasEnded = Atomic(false)

        init(inner: ResponseBodyStream, observer: any ResponseBodyObserver) {
            self.inner = inner
            self.observer = observer
        }

        func received(_ chunk: Data) { observer.received(chunk) }

        /// Reports the end, if nobody did before; an error the observer throws at a clean end is rethrown.
        func end(with error: CourierError?) {
            try? finish(with: error)
        }

        func finish(with error: CourierError?) throws(CourierError) {
            guard !hasEnded.exchange(true, ordering: .acquiringAndReleasing) else { return }
            try observer.ended(with: error)
        }

        deinit {
            end(with: CourierError(.cancelled, "the response body was abandoned", source: "ResponseBodyStream"))
        }
    }

    /// The reader of an observed stream: pulls from the inner stream's iterator and reports each step.
    final class ObservedReader {
        private let body: ObservedBody
        private var inner: ResponseBodyStream.AsyncIterator

        init(body: ObservedBody) {
            self.body = body
            inner = body.inner.makeAsyncIterator()
        }

        func next() async throws -> Data? {
            let chunk: Data?
            do {
                chunk = try await inner.next()
            } catch {
                let failure =
                    error as? CourierError
                    ?? CourierError(
                        .invalidResponse, "the response body failed: \(error)", source: "ResponseBodyStream",
                        underlying: error)
                body.end(with: failure)
                throw failure
            }
            guard let chunk else {
                try body.finish(with: nil)
                return nil
            }
            body.received(chunk)
            return chunk
        }

        deinit {
            body.end(
                with: CourierError(.cancelled, "the response body iterator was dropped", source: "ResponseBodyStream"))
        }
    }
}
