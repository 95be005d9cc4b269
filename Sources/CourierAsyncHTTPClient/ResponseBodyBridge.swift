import AsyncHTTPClient
import Courier
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTPCompression
import Synchronization

/// Moves one response body from AsyncHTTPClient's `HTTPClientResponse.Body` into a `ResponseBodyStream`.
///
/// One task per body pulls AsyncHTTPClient's buffers and writes them into the stream's writer.
/// Buffers up to 256 KiB are copied into `Data` and larger ones wrapped without copying (SwiftNIO's
/// `.automatic` strategy): wrapping every small read would let a slow reader's megabyte of
/// buffered bytes pin many far larger socket-read allocations. Backpressure runs end to end: when
/// the writer answers `.pause` the task stops pulling, so AsyncHTTPClient, whose own buffer holds
/// one read, stops reading the socket until the consumer drains the stream and `onResume` opens
/// the gate again.
///
/// The task stops, ending AsyncHTTPClient's iteration (which then closes the connection), when
/// the consumer abandons the stream (`abort()`, the stream's `onAbort`) or when the total
/// deadline passes (`timeOut()`, scheduled on an event loop); the body then fails with
/// `cancelled` or `timedOut`.
final class ResponseBodyBridge: Sendable {
    private enum Stop {
        case abandoned
        case timedOut
    }

    private struct State {
        var task: Task<Void, Never>?
        var deadlineTimer: Scheduled<Void>?
        var gate: CheckedContinuation<Void, Never>?
        var resumeArrived = false
        var stop: Stop?
    }

    private let request: Request
    private let state = Mutex(State())

    init(request: Request) {
        self.request = request
    }

    /// Starts pulling `body` into `writer`, reporting progress and enforcing `deadline` on its event
    /// loop; `onEnd` runs once when pulling stops, whether the body ended, failed or was abandoned.
    func start(
        body: HTTPClientResponse.Body, writer: ResponseBodyStream.Writer, expectedLength: Int64?,
        progress: (@Sendable (_ received: Int64, _ total: Int64?) -> Void)?,
        deadline: (NIODeadline, any EventLoop)?,
        onEnd: @escaping @Sendable () -> Void = {}
    ) {
        let timer = deadline.map { deadline, eventLoop in eventLoop.scheduleTask(deadline: deadline) { self.timeOut() }
        }
        state.withCheckedLock { $0.deadlineTimer = timer }
        let task = Task {
            await self.pump(body, into: writer, total: expectedLength, progress: progress)
            onEnd()
        }
        let stopped = state.withCheckedLock { state in
            state.task = task
            return state.stop != nil
        }
        if stopped { task.cancel() }
    }

    /// The consumer drained the stream: let a paused pump continue.
    func resume() {
        let gate = state.withCheckedLock { state in
            guard let gate = state.gate else {
                state.resumeArrived = true
                return nil as CheckedContinuation<Void, Never>?
            }
            state.gate = nil
            return gate
        }
        gate?.resume()
    }

    /// The consumer abandoned the stream: stop pulling, which makes AsyncHTTPClient cancel the transfer.
    func abort() { stop(.abandoned) }

    /// The total deadline passed while the body was arriving.
    func timeOut() { stop(.timedOut) }

    private func stop(_ reason: Stop) {
        let (task, gate) = state.withCheckedLock { state in
            guard state.stop == nil else {
                return (nil as Task<Void, Never>?, nil as CheckedContinuation<Void, Never>?)
            }
            state.stop = reason
            defer { state.gate = nil }
            return (state.task, state.gate)
        }
        gate?.resume()
        task?.cancel()
    }

    private func pump(
        _ body: HTTPClientResponse.Body, into writer: ResponseBodyStream.Writer, total: Int64?,
        progress: (@Sendable (_ received: Int64, _ total: Int64?) -> Void)?
    ) async {
        defer { state.withCheckedLock { $0.deadlineTimer }?.cancel() }
        var received: Int64 = 0
        do {
            for try await buffer in body {
                guard buffer.readableBytes > 0 else { continue }
                received += Int64(buffer.readableBytes)
                progress?(received, total)
                switch writer.write(Data(buffer: buffer, byteTransferStrategy: .automatic)) {
                case .produceMore: break
                case .pause: await waitForResume()
                case .abort: return
                }
                if stopReason != nil { break }
            }
        } catch let error as NIOHTTPDecompression.ExtraDecompressionError
            where error == .truncatedData && received == 0 && stopReason == nil
        {
            // SwiftNIO's decompressor fails an empty body (a HEAD, 204 or 304 reply, or `Content-Length: 0`)
            // labelled `gzip` or `deflate` as truncated; like curl, take it as the empty body it is.
            writer.finish()
            return
        } catch {
            writer.fail(stopError ?? CourierError(mapping: error, request: request, deadline: nil))
            return
        }
        if let stopError { writer.fail(stopError) } else { writer.finish() }
    }

    /// Suspends until `resume()`, or returns at once when it already came or the bridge is stopping.
    private func waitForResume() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (gate: CheckedContinuation<Void, Never>) in
                let open = state.withCheckedLock { state in
                    if state.resumeArrived || state.stop != nil || Task.isCancelled {
                        state.resumeArrived = false
                        return true
                    }
                    state.gate = gate
                    return false
                }
                if open { gate.resume() }
            }
        } onCancel: {
            resume()
        }
    }

    private var stopReason: Stop? { state.withCheckedLock { $0.stop } }

    /// The error the body ends with once stopped, or `nil` while it is not.
    private var stopError: CourierError? {
        switch stopReason {
        case nil:
            nil
        case .abandoned?:
            CourierError(
                .cancelled, "the response body was abandoned by its reader", source: "AsyncHTTPClientTransport",
                request: request)
        case .timedOut?:
            CourierError(
                .timedOut, "the total timeout passed while the response body was arriving",
                source: "AsyncHTTPClientTransport", request: request)
        }
    }
}
