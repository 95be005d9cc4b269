import Testing

@testable import CourierURLSession

/// The exchange's phases alone, with strings for the waiter and the writer.
@Suite struct URLSessionExchangeStateTests {
    typealias State = URLSessionExchangeState<String, String>

    @Test func theHeadGoesToTheWaiterAndTheBodyToTheWriter() {
        var state = State.idle
        state.start("waiter")
        guard case .returnHead("waiter") = state.receivedHead(writer: "writer") else {
            Issue.record("the head was not returned")
            return
        }
        guard case .write("writer") = state.receivedData() else {
            Issue.record("data was not written")
            return
        }
        guard case .finishBody("writer") = state.completed(nil) else {
            Issue.record("the body was not finished")
            return
        }
        guard case .none = state.receivedData() else {
            Issue.record("data after the end was not dropped")
            return
        }
    }

    @Test func aTaskThatEndsBeforeItsHeadFailsTheSend() {
        var state = State.idle
        state.start("waiter")
        guard
            case .failSend("waiter", .urlError(code: -1004, description: "refused")) = state.completed(
                .urlError(code: -1004, description: "refused"))
        else {
            Issue.record("send did not fail with URLSession's error")
            return
        }
        var quiet = State.idle
        quiet.start("waiter")
        guard case .failSend("waiter", .noResponse) = quiet.completed(nil) else {
            Issue.record("a task completed without a head did not fail send")
            return
        }
    }

    @Test func anInterruptionCancelsTheTaskOnceInEitherPhase() {
        var waiting = State.idle
        waiting.start("waiter")
        guard case .failSendAndCancelTask("waiter", .timedOut) = waiting.interrupted(.timedOut) else {
            Issue.record("the deadline did not fail send")
            return
        }
        guard case .none = waiting.interrupted(.cancelled), case .none = waiting.completed(nil) else {
            Issue.record("a second ending acted again")
            return
        }
        var streaming = State.idle
        streaming.start("waiter")
        _ = streaming.receivedHead(writer: "writer")
        guard case .failBodyAndCancelTask("writer", .cancelled) = streaming.interrupted(.cancelled) else {
            Issue.record("cancelling while streaming did not fail the body")
            return
        }
    }

    @Test func anAbandonedBodyCancelsTheTaskAndIgnoresWhatFollows() {
        var state = State.idle
        state.start("waiter")
        _ = state.receivedHead(writer: "writer")
        guard case .cancelTask = state.bodyAbandoned() else {
            Issue.record("the task was not cancelled")
            return
        }
        guard case .none = state.completed(.urlError(code: -999, description: "cancelled")) else {
            Issue.record("the cancelled task's completion acted")
            return
        }
        guard case .none = state.bodyAbandoned() else {
            Issue.record("abandoning twice acted twice")
            return
        }
    }

    @Test func aRejectedHeadFailsTheSendAndCancelsTheTask() {
        var state = State.idle
        state.start("waiter")
        let failure = URLSessionExchangeFailure.rejected(
            limit: true, message: "too big", source: "Limits.maxHeaderBytes")
        guard case .failSendAndCancelTask("waiter", failure) = state.rejectedHead(failure) else {
            Issue.record("the head was not rejected")
            return
        }
        guard case .none = state.receivedHead(writer: "writer") else {
            Issue.record("a head after the rejection was returned")
            return
        }
    }
}
