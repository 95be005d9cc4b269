/// One AsyncHTTPClient exchange's way from waiting for its response head to its end, as one value:
/// each phase carries only its own data, and each event returns what `ExchangeDelegate` must do,
/// so the rules are tested without AsyncHTTPClient, an event loop or a task (`ExchangeStateTests`).
///
/// The head is not handed to `send` when it arrives but once the event loop has dealt with the
/// rest of what it read (`handOver`, scheduled on the loop): a small body that came in the same
/// read is then handed over whole, with no stream, writer or lock, and `send` is resumed once.
///
/// Generic over `send`'s waiter, the head, the body stream and its writer, and the gate a paused
/// body part waits on, so that tests can drive it with plain values; `ExchangeDelegate` uses a
/// checked continuation, `ResponseHead`, `ResponseBodyStream` and its writer, and an `EventLoopPromise`.
struct ExchangeState<Waiter, Head, Stream, Writer, Gate> {
    enum Phase {
        /// `send` waits; no head yet.
        case awaitingHead(Waiter)
        /// The head arrived; `send` gets it at `handOver` with the body held so far.
        case headArrived(Waiter, Head, HeldBody)
        /// `send` has its response; the rest of the body goes through the writer.
        case streaming(Writer, Flow)
        /// `send` was answered and the body, if any, finished, failed or was abandoned.
        case ended
    }

    /// The body of a head not yet handed over.
    enum HeldBody {
        /// The bytes so far; the exchange still runs. `[UInt8]` rather than `Data`: valgrind cannot
        /// follow `Data`'s storage and reported a body held at a C program's exit as lost.
        case pending([UInt8])
        /// The exchange ended: these bytes are the whole body.
        case whole([UInt8])
        /// The exchange failed after these bytes.
        case failed([UInt8], Failure)
    }

    /// Whether AsyncHTTPClient may send the next body part.
    enum Flow {
        case flowing
        /// The writer said `.pause`: the last part's gate opens when the reader resumes.
        case paused(Gate)
        /// The reader resumed before the pause was recorded: the next pause opens at once.
        case resumedEarly
    }

    /// Why an exchange failed, as the delegate will report it.
    struct Failure {
        let error: any Error
    }

    enum HeadAction {
        /// Hand the head over on the event loop, after the rest of the read.
        case scheduleHandOver
        /// Refuse the head: `send` was answered already (cancelled).
        case refuse
    }

    enum BodyAction {
        /// Kept with the head; take the next part.
        case buffered
        /// Write the part to this writer.
        case write(Writer)
        /// Refuse the part: nobody reads the body any more.
        case refuse
    }

    enum PauseAction {
        /// Wait: the gate opens when the reader resumes.
        case wait
        /// The reader resumed already: open the gate now.
        case open(Gate)
    }

    enum EndAction {
        /// Nothing to do now (the body waits for its hand-over, or the exchange ended already).
        case none
        /// Finish the body stream.
        case finish(Writer)
        /// AsyncHTTPClient ended the exchange without a head: fail `send`.
        case missingHead(Waiter)
    }

    enum FailureAction {
        /// Nothing to do now (the failure waits for the hand-over, or the exchange ended already).
        case none
        /// `send` throws the error.
        case failWaiter(Waiter)
        /// The body fails; open the gate of a part still waiting, so no promise is left unfulfilled.
        case failWriter(Writer, Gate?)
    }

    /// What `send` is resumed with.
    enum HandOver {
        /// The body arrived whole with the head.
        case whole(Waiter, Head, [UInt8])
        /// The body goes on: a stream was made (`makeStream`); write `held` to its writer first.
        case streaming(Waiter, Head, Stream, Writer, held: [UInt8])
        /// The exchange failed after the head: a stream was made; write `held`, then fail it.
        case failing(Waiter, Head, Stream, Writer, held: [UInt8], Failure)
    }

    enum AbandonAction {
        /// Nothing to do: the body had ended.
        case none
        /// Cancel the exchange, opening the gate of a part still waiting.
        case cancel(Gate?)
    }

    private(set) var phase: Phase

    init(waiter: Waiter) {
        phase = .awaitingHead(waiter)
    }

    mutating func headArrived(_ head: Head) -> HeadAction {
        guard case .awaitingHead(let waiter) = phase else { return .refuse }
        phase = .headArrived(waiter, head, .pending([]))
        return .scheduleHandOver
    }

    mutating func bodyArrived(_ append: (inout [UInt8]) -> Void) -> BodyAction {
        switch phase {
        case .headArrived(let waiter, let head, .pending(var held)):
            phase = .ended  // the held bytes are appended in place, not copied
            append(&held)
            phase = .headArrived(waiter, head, .pending(held))
            return .buffered
        case .streaming(let writer, _):
            return .write(writer)
        case .awaitingHead, .headArrived, .ended:
            return .refuse
        }
    }

    /// The writer answered `.pause` for the last part, which waits on `gate`.
    mutating func paused(on gate: Gate) -> PauseAction {
        switch phase {
        case .streaming(let writer, .resumedEarly):
            phase = .streaming(writer, .flowing)
            return .open(gate)
        case .streaming(let writer, _):
            phase = .streaming(writer, .paused(gate))
            return .wait
        case .awaitingHead, .headArrived, .ended:
            return .open(gate)
        }
    }

    /// The reader drained the stream: the gate to open, if a part waits on one.
    mutating func resumed() -> Gate? {
        switch phase {
        case .streaming(let writer, .paused(let gate)):
            phase = .streaming(writer, .flowing)
            return gate
        case .streaming(let writer, .flowing):
            phase = .streaming(writer, .resumedEarly)
            return nil
        case .streaming(_, .resumedEarly), .awaitingHead, .headArrived, .ended:
            return nil
        }
    }

    mutating func ended() -> EndAction {
        switch phase {
        case .headArrived(let waiter, let head, .pending(let held)):
            phase = .headArrived(waiter, head, .whole(held))
            return .none
        case .streaming(let writer, _):
            phase = .ended
            return .finish(writer)
        case .awaitingHead(let waiter):
            phase = .ended
            return .missingHead(waiter)
        case .headArrived, .ended:
            return .none
        }
    }

    mutating func failed(_ failure: Failure) -> FailureAction {
        switch phase {
        case .awaitingHead(let waiter):
            phase = .ended
            return .failWaiter(waiter)
        case .headArrived(let waiter, let head, .pending(let held)):
            phase = .headArrived(waiter, head, .failed(held, failure))
            return .none
        case .streaming(let writer, let flow):
            phase = .ended
            if case .paused(let gate) = flow { return .failWriter(writer, gate) }
            return .failWriter(writer, nil)
        case .headArrived, .ended:
            // A whole body that a late failure (the connection closing after the end) cannot spoil.
            return .none
        }
    }

    /// Hands the head over; `makeStream` is called only when the body is not whole.
    mutating func handOver(makeStream: () -> (Stream, Writer)) -> HandOver? {
        guard case .headArrived(let waiter, let head, let body) = phase else { return nil }
        switch body {
        case .whole(let data):
            phase = .ended
            return .whole(waiter, head, data)
        case .pending(let held):
            let (stream, writer) = makeStream()
            phase = .streaming(writer, .flowing)
            return .streaming(waiter, head, stream, writer, held: held)
        case .failed(let held, let failure):
            phase = .ended
            let (stream, writer) = makeStream()
            return .failing(waiter, head, stream, writer, held: held, failure)
        }
    }

    /// The reader abandoned the body before its end.
    mutating func abandoned() -> AbandonAction {
        guard case .streaming(_, let flow) = phase else { return .none }
        phase = .ended
        if case .paused(let gate) = flow { return .cancel(gate) }
        return .cancel(nil)
    }
}
