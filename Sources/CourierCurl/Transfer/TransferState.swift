/// One transfer's way from waiting for its response head to its end, as one value: each phase
/// carries only its own data, and each event returns what `ActiveTransfer` must do, so the rules
/// are tested without curl, a thread or a task (`TransferStateTests`).
///
/// A head completes inside curl's callbacks, but `send` is answered only when the round of
/// `curl_multi_socket_action` ends (`roundEnded`): a small body that ends in the same round is
/// then handed over whole, with no stream at all.
///
/// Generic over `send`'s waiter, the body stream and its writer so that tests can drive it with
/// plain values; `ActiveTransfer` uses `ResponseWaiter` (a suspended task's continuation, or the
/// caller driving the transfer), `ResponseBodyStream` and `ResponseBodyStream.Writer`.
struct TransferState<Waiter, Stream, Writer> {
    typealias Head = ResponseHeadParser.Head

    enum Phase {
        /// `send` waits; no complete head yet.
        case awaitingHead(Waiter)
        /// The head is complete; `send` gets it with `body` when the round ends.
        case headReady(Waiter, Head, HeldBody)
        /// `send` has its response; the rest of the body goes through the writer.
        case streaming(Writer)
        /// `send` was answered and the body, if any, finished or failed.
        case ended
    }

    /// The body of a head that waits for the end of its round.
    enum HeldBody {
        /// The bytes so far; the transfer still runs.
        case pending([UInt8])
        /// The transfer ended: these bytes are the whole body.
        case whole([UInt8])
        /// The body outgrew `pendingLimit` and streams already; the transfer still runs.
        case streaming(Stream, Writer)
        /// The stream finished or failed; only handing it over remains.
        case closed(Stream)
    }

    enum BodyAction {
        /// Kept with the head; nothing to do.
        case buffered
        /// Write the chunk to this writer.
        case write(Writer)
        /// The chunk made the pending bytes too many: a stream was made; write these bytes (the
        /// chunk included) to its writer.
        case startedStream(Writer, [UInt8])
        /// Refuse the chunk: a body cannot come before its head.
        case bodyBeforeHead
        /// Refuse the chunk: a body kept whole may not pass this many bytes.
        case exceedsBufferedLimit(Int64)
        /// Refuse the chunk: the body has ended.
        case afterEnd
    }

    /// What `send` is resumed with at the end of the head's round.
    struct HandOver {
        enum Body {
            case whole([UInt8])
            case stream(Stream)
        }

        let waiter: Waiter
        let head: Head
        let body: Body
        /// Bytes a stream made just now must get before `send` resumes.
        let firstWrite: (writer: Writer, bytes: [UInt8])?
    }

    enum CompletionAction {
        /// Nothing to do now; a whole body waits for the end of the round.
        case none
        /// Finish the body stream.
        case finish(Writer)
        /// The transfer ended before its head: fail it.
        case missingHead
    }

    enum FailureAction {
        /// `send` has its answer and the body its end already.
        case none
        /// `send` throws the error.
        case throwToWaiter(Waiter)
        /// The body throws the error, after `bytesFirst` (a stream made just now gets what came).
        case failStream(Writer, bytesFirst: [UInt8])
    }

    private(set) var phase: Phase
    /// Past this many pending bytes the body streams as it comes, even within the head's round.
    let pendingLimit: Int
    /// For a body kept whole (a transfer its caller drives), the most bytes it may have.
    let bufferedLimit: Int64?

    init(waiter: Waiter, pendingLimit: Int, bufferedLimit: Int64?) {
        phase = .awaitingHead(waiter)
        self.pendingLimit = pendingLimit
        self.bufferedLimit = bufferedLimit
    }

    /// Whether no complete head has come; header lines after it are not parsed.
    var isAwaitingHead: Bool {
        if case .awaitingHead = phase { return true }
        return false
    }

    /// The head is complete; `true` when it is the first, and the owner must hand it over when the round ends.
    mutating func headCompleted(_ head: Head) -> Bool {
        guard case .awaitingHead(let waiter) = phase else { return false }
        phase = .headReady(waiter, head, .pending([]))
        return true
    }

    /// A chunk of `count` bytes came; `chunk` copies it when it is kept. `makeStream` is called at
    /// most once, when the pending bytes reach `pendingLimit`.
    mutating func receivedBody(
        count: Int, chunk: (inout [UInt8]) -> Void, makeStream: () -> (Stream, Writer)
    ) -> BodyAction {
        switch phase {
        case .awaitingHead:
            return .bodyBeforeHead
        case .headReady(let waiter, let head, .pending(var bytes)):
            if let bufferedLimit, Int64(bytes.count + count) > bufferedLimit {
                return .exceedsBufferedLimit(bufferedLimit)
            }
            phase = .ended  // Lets `bytes` grow in place: the phase no longer shares its buffer.
            chunk(&bytes)
            guard bytes.count >= pendingLimit else {
                phase = .headReady(waiter, head, .pending(bytes))
                return .buffered
            }
            let (stream, writer) = makeStream()
            phase = .headReady(waiter, head, .streaming(stream, writer))
            return .startedStream(writer, bytes)
        case .headReady(_, _, .streaming(_, let writer)), .streaming(let writer):
            return .write(writer)
        case .headReady(_, _, .whole), .headReady(_, _, .closed), .ended:
            return .afterEnd
        }
    }

    /// The round of curl's work ended: a ready head goes to `send`, with its body whole when the
    /// transfer ended, or as a stream (made now with `makeStream` if there is none yet).
    mutating func roundEnded(makeStream: () -> (Stream, Writer)) -> HandOver? {
        guard case .headReady(let waiter, let head, let body) = phase else { return nil }
        switch body {
        case .pending(let bytes):
            let (stream, writer) = makeStream()
            phase = .streaming(writer)
            return HandOver(
                waiter: waiter, head: head, body: .stream(stream),
                firstWrite: bytes.isEmpty ? nil : (writer, bytes))
        case .whole(let bytes):
            phase = .ended
            return HandOver(waiter: waiter, head: head, body: .whole(bytes), firstWrite: nil)
        case .streaming(let stream, let writer):
            phase = .streaming(writer)
            return HandOver(waiter: waiter, head: head, body: .stream(stream), firstWrite: nil)
        case .closed(let stream):
            phase = .ended
            return HandOver(waiter: waiter, head: head, body: .stream(stream), firstWrite: nil)
        }
    }

    /// curl finished the transfer and nothing failed.
    mutating func completed() -> CompletionAction {
        switch phase {
        case .awaitingHead:
            return .missingHead
        case .headReady(let waiter, let head, .pending(let bytes)):
            phase = .headReady(waiter, head, .whole(bytes))
            return .none
        case .headReady(let waiter, let head, .streaming(let stream, let writer)):
            phase = .headReady(waiter, head, .closed(stream))
            return .finish(writer)
        case .streaming(let writer):
            phase = .ended
            return .finish(writer)
        case .headReady(_, _, .whole), .headReady(_, _, .closed), .ended:
            return .none
        }
    }

    /// The transfer failed: `send` throws, or, once the head is complete, the body does (through a
    /// stream made now with `makeStream` if there is none yet).
    mutating func failed(makeStream: () -> (Stream, Writer)) -> FailureAction {
        switch phase {
        case .awaitingHead(let waiter):
            phase = .ended
            return .throwToWaiter(waiter)
        case .headReady(let waiter, let head, .pending(let bytes)):
            let (stream, writer) = makeStream()
            phase = .headReady(waiter, head, .closed(stream))
            return .failStream(writer, bytesFirst: bytes)
        case .headReady(let waiter, let head, .streaming(let stream, let writer)):
            phase = .headReady(waiter, head, .closed(stream))
            return .failStream(writer, bytesFirst: [])
        case .streaming(let writer):
            phase = .ended
            return .failStream(writer, bytesFirst: [])
        case .headReady(_, _, .whole), .headReady(_, _, .closed), .ended:
            return .none
        }
    }
}
