import Foundation
import Testing

@testable import CourierAsyncHTTPClient

/// The AsyncHTTPClient exchange's phases driven with plain values: no client, event loop or task.
@Suite("ExchangeState")
struct ExchangeStateTests {
    /// Waiter, head, stream, writer and gate as names and numbers.
    typealias State = ExchangeState<String, Int, String, String, Int>

    struct Failed: Error {}

    /// An exchange whose head was handed over with a stream ("stream", "writer"): the body flows.
    private static func streaming() -> State {
        var state = State(waiter: "send")
        _ = state.headArrived(200)
        _ = state.handOver { ("stream", "writer") }
        return state
    }

    private func append(_ text: String) -> (inout [UInt8]) -> Void {
        { $0.append(contentsOf: Array(text.utf8)) }
    }

    @Test func aBodyThatEndsInTheHeadsReadIsHandedOverWholeWithoutAStream() {
        var state = State(waiter: "send")
        guard case .scheduleHandOver = state.headArrived(200) else {
            Issue.record("no hand-over scheduled")
            return
        }
        guard case .buffered = state.bodyArrived(append("hel")) else {
            Issue.record("not held")
            return
        }
        guard case .buffered = state.bodyArrived(append("lo")) else {
            Issue.record("not held")
            return
        }
        guard case .none = state.ended() else {
            Issue.record("ended before the hand-over")
            return
        }
        var streamsMade = 0
        let handOver = state.handOver {
            streamsMade += 1
            return ("stream", "writer")
        }
        guard case .whole("send", 200, let body)? = handOver else {
            Issue.record("not whole: \(String(describing: handOver))")
            return
        }
        #expect(body == Array("hello".utf8))
        #expect(streamsMade == 0)
        guard case .ended = state.phase else {
            Issue.record("not ended")
            return
        }
    }

    @Test func aBodyStillComingStreamsWithWhatCameFirst() {
        var state = State(waiter: "send")
        _ = state.headArrived(200)
        _ = state.bodyArrived(append("first"))
        let handOver = state.handOver { ("stream", "writer") }
        guard case .streaming("send", 200, "stream", "writer", let held)? = handOver else {
            Issue.record("not streaming: \(String(describing: handOver))")
            return
        }
        #expect(held == Array("first".utf8))
        guard case .write("writer") = state.bodyArrived(append("more")) else {
            Issue.record("not written")
            return
        }
        guard case .finish("writer") = state.ended() else {
            Issue.record("not finished")
            return
        }
        guard case .refuse = state.bodyArrived(append("late")) else {
            Issue.record("a part after the end was taken")
            return
        }
    }

    @Test func aFailureBeforeTheHeadFailsTheWaiter() {
        var state = State(waiter: "send")
        guard case .failWaiter("send") = state.failed(.init(error: Failed())) else {
            Issue.record("waiter not failed")
            return
        }
        guard case .refuse = state.headArrived(200) else {
            Issue.record("a head after the failure was taken")
            return
        }
        #expect(state.handOver { ("stream", "writer") } == nil)
    }

    @Test func aFailureBeforeTheHandOverGivesTheHeadAndAFailingBody() {
        var state = State(waiter: "send")
        _ = state.headArrived(200)
        _ = state.bodyArrived(append("part"))
        guard case .none = state.failed(.init(error: Failed())) else {
            Issue.record("acted before the hand-over")
            return
        }
        let handOver = state.handOver { ("stream", "writer") }
        guard case .failing("send", 200, "stream", "writer", let held, let failure)? = handOver else {
            Issue.record("not failing: \(String(describing: handOver))")
            return
        }
        #expect(held == Array("part".utf8))
        #expect(failure.error is Failed)
    }

    @Test func aLateFailureDoesNotSpoilAWholeBody() {
        var state = State(waiter: "send")
        _ = state.headArrived(200)
        _ = state.bodyArrived(append("all"))
        _ = state.ended()
        guard case .none = state.failed(.init(error: Failed())) else {
            Issue.record("the failure acted")
            return
        }
        guard case .whole(_, _, let body)? = state.handOver(makeStream: { ("stream", "writer") }) else {
            Issue.record("not whole")
            return
        }
        #expect(body == Array("all".utf8))
    }

    @Test func aFailureWhileStreamingFailsTheWriterAndOpensAWaitingGate() {
        var state = Self.streaming()
        guard case .wait = state.paused(on: 7) else {
            Issue.record("did not wait")
            return
        }
        guard case .failWriter("writer", 7?) = state.failed(.init(error: Failed())) else {
            Issue.record("writer or gate not failed")
            return
        }
    }

    @Test func aResumeOpensThePausedGate() {
        var state = Self.streaming()
        guard case .wait = state.paused(on: 1) else {
            Issue.record("did not wait")
            return
        }
        #expect(state.resumed() == 1)
        guard case .wait = state.paused(on: 2) else {
            Issue.record("an old resume opened a new pause")
            return
        }
        #expect(state.resumed() == 2)
    }

    @Test func aResumeBeforeItsPauseWasRecordedOpensThePauseAtOnce() {
        var state = Self.streaming()
        #expect(state.resumed() == nil)
        guard case .open(3) = state.paused(on: 3) else {
            Issue.record("the early resume was lost")
            return
        }
        guard case .wait = state.paused(on: 4) else {
            Issue.record("one resume opened two pauses")
            return
        }
    }

    @Test func abandoningTheBodyCancelsAndOpensAWaitingGate() {
        var state = Self.streaming()
        _ = state.paused(on: 5)
        guard case .cancel(5?) = state.abandoned() else {
            Issue.record("not cancelled with its gate")
            return
        }
        guard case .refuse = state.bodyArrived(append("x")) else {
            Issue.record("a part after abandonment was taken")
            return
        }
        guard case .none = state.abandoned() else {
            Issue.record("cancelled twice")
            return
        }
    }

    @Test func anExchangeThatEndsWithoutAHeadFailsItsWaiter() {
        var state = State(waiter: "send")
        guard case .missingHead("send") = state.ended() else {
            Issue.record("missing head not reported")
            return
        }
    }
}
