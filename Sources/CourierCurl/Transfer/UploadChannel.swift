import Courier
import Synchronization

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Carries a request body from the task that produces it to curl's read callback on the I/O thread.
///
/// The producer (`pump`) pushes chunks and waits while more than `capacity` bytes are queued, so a
/// fast body source never runs far ahead of the socket. The read callback copies out what is queued;
/// when nothing is, it pauses the upload, and the next push calls `wakeReader`, which asks the I/O
/// thread to unpause. The channel checks that the body produces exactly the announced length.
final class UploadChannel: Sendable {
    /// What the read callback should tell curl.
    enum ReadResult: Equatable {
        /// This many bytes were copied.
        case bytes(Int)
        /// Nothing is queued yet: pause the upload until `wakeReader` is called.
        case wait
        /// The body is complete.
        case end
        /// The body failed; abort the transfer with `failure`.
        case failed
    }

    private struct State {
        var chunks: [Data] = []
        var head = 0
        var offset = 0
        var queuedBytes = 0
        var producedBytes: Int64 = 0
        var finished = false
        var failure: CourierError?
        var closed = false
        var readerWaiting = false
        var producerWaiting: CheckedContinuation<Bool, Never>?
        var pump: Task<Void, Never>?
    }

    private let state = Protected(State())
    private let expectedLength: Int64?
    private let capacity: Int
    private let wakeReader: @Sendable () -> Void

    /// - Parameters:
    ///   - expectedLength: the length announced on the wire, checked against what the body produces.
    ///   - capacity: queued bytes above which the producer waits.
    ///   - wakeReader: asks the I/O thread to unpause a waiting read callback; must not block.
    init(expectedLength: Int64?, capacity: Int = 256 * 1024, wakeReader: @escaping @Sendable () -> Void) {
        self.expectedLength = expectedLength
        self.capacity = capacity
        self.wakeReader = wakeReader
    }

    /// Whether the whole body is queued and nothing more will come: reading it never waits.
    var isFullyQueued: Bool { state.withLock { $0.finished && $0.failure == nil } }

    /// The failure the body ended with, once it has one.
    var failure: CourierError? { state.withLock { $0.failure } }

    /// Queues a whole in-memory body at once, so no producing task is needed.
    func fill(with chunks: [Data]) {
        for chunk in chunks where !chunk.isEmpty { _ = enqueue(chunk) }
        end(with: nil)
    }

    /// Starts a task that reads `chunks` into the channel until the body ends or the channel closes.
    func startPump(_ chunks: RequestBody.Chunks) {
        let task = Task { [self] in
            do {
                for try await chunk in chunks {
                    guard await push(chunk) else { return }
                }
                end(with: nil)
            } catch let error as CourierError {
                end(with: error)
            } catch {
                end(
                    with: CourierError(
                        .encodingFailed, "the request body failed: \(error)",
                        source: "CurlTransport", underlying: error))
            }
        }
        let cancelNow = state.withLock { state in
            state.pump = task
            return state.closed
        }
        if cancelNow { task.cancel() }
    }

    /// Queues `chunk`, then waits while the queue is full; `false` once the transfer no longer wants the body.
    func push(_ chunk: Data) async -> Bool {
        guard !chunk.isEmpty else { return !state.withLock { $0.closed } }
        guard enqueue(chunk) else { return false }
        return await withCheckedContinuation { continuation in
            let resumeNow: Bool? = state.withLock { state in
                if state.closed { return false }
                if state.queuedBytes <= capacity { return true }
                state.producerWaiting = continuation
                return nil
            }
            if let resumeNow { continuation.resume(returning: resumeNow) }
        }
    }

    /// Copies queued bytes into curl's buffer; called only on the thread driving the transfer
    /// (the I/O thread, or a blocking caller's own, which drives only a body already fully queued).
    func read(into buffer: UnsafeMutableRawBufferPointer) -> ReadResult {
        let (result, producer) = state.withLock { state -> (ReadResult, CheckedContinuation<Bool, Never>?) in
            if state.failure != nil { return (.failed, nil) }
            var copied = 0
            while copied < buffer.count, state.head < state.chunks.count {
                let chunk = state.chunks[state.head]
                let count = min(buffer.count - copied, chunk.count - state.offset)
                chunk.withUnsafeBytes { source in
                    let start = source.baseAddress!.advanced(by: state.offset)
                    buffer.baseAddress!.advanced(by: copied).copyMemory(from: start, byteCount: count)
                }
                copied += count
                state.offset += count
                if state.offset == chunk.count {
                    state.chunks[state.head] = Data()
                    state.head += 1
                    state.offset = 0
                }
            }
            state.queuedBytes -= copied
            if state.head == state.chunks.count {
                state.chunks.removeAll(keepingCapacity: true)
                state.head = 0
            }
            var producer: CheckedContinuation<Bool, Never>?
            if state.queuedBytes <= capacity {
                producer = state.producerWaiting
                state.producerWaiting = nil
            }
            if copied > 0 { return (.bytes(copied), producer) }
            if state.finished { return (.end, producer) }
            state.readerWaiting = true
            return (.wait, producer)
        }
        producer?.resume(returning: true)
        return result
    }

    /// Stops the body: the transfer ended. Wakes a waiting producer and cancels the pump.
    func close() {
        let (producer, pump) = state.withLock {
            state -> (CheckedContinuation<Bool, Never>?, Task<Void, Never>?) in
            state.closed = true
            state.chunks.removeAll()
            state.queuedBytes = 0
            defer { state.producerWaiting = nil }
            return (state.producerWaiting, state.pump)
        }
        producer?.resume(returning: false)
        pump?.cancel()
    }

    /// Appends a chunk, failing the body when it grows past the announced length.
    private func enqueue(_ chunk: Data) -> Bool {
        let (accepted, wake) = state.withLock { state -> (Bool, Bool) in
            guard !state.closed, !state.finished else { return (false, false) }
            state.producedBytes += Int64(chunk.count)
            if let expectedLength, state.producedBytes > expectedLength {
                state.failure = CourierError(
                    .encodingFailed,
                    "the request body produced more than the \(expectedLength) bytes announced",
                    source: "CurlTransport")
                state.finished = true
            } else {
                state.chunks.append(chunk)
                state.queuedBytes += chunk.count
            }
            defer { state.readerWaiting = false }
            return (state.failure == nil, state.readerWaiting)
        }
        if wake { wakeReader() }
        return accepted
    }

    /// Ends the body, successfully (`nil`) or with `error`; a short body is an error too.
    private func end(with error: CourierError?) {
        let wake = state.withLock { state -> Bool in
            guard !state.closed, !state.finished else { return false }
            state.finished = true
            if let error {
                state.failure = error
            } else if let expectedLength, state.producedBytes != expectedLength {
                state.failure = CourierError(
                    .encodingFailed,
                    "the request body produced \(state.producedBytes) of the \(expectedLength) bytes announced",
                    source: "CurlTransport")
            }
            defer { state.readerWaiting = false }
            return state.readerWaiting
        }
        if wake { wakeReader() }
    }
}
