import HTTPTypes
import Testing

@testable import CourierCurl

/// A transfer's phases from `send`'s wait to the body's end, driven without curl: the waiter is a
/// number, streams and writers are names.
@Suite("Curl transfer state machine")
struct TransferStateTests {
    private typealias State = TransferState<Int, String, String>

    private let head = ResponseHeadParser.Head(status: .ok, fields: [.contentType: "text/plain"])

    private func state(pendingLimit: Int = 8, bufferedLimit: Int64? = nil) -> State {
        State(waiter: 7, pendingLimit: pendingLimit, bufferedLimit: bufferedLimit)
    }

    /// Feeds `bytes` as one chunk; `made` counts the streams made.
    private func receive(_ bytes: [UInt8], into state: inout State, made: inout Int) -> State.BodyAction {
        state.receivedBody(
            count: bytes.count, chunk: { $0.append(contentsOf: bytes) },
            makeStream: {
                made += 1
                return ("stream\(made)", "writer\(made)")
            })
    }

    private func noStream() -> (String, String) {
        Issue.record("a stream was made")
        return ("unexpected", "unexpected")
    }

    @Test func aHeadIsReadyOnceAndLaterHeadsAreIgnored() {
        var state = state()
        #expect(state.isAwaitingHead)
        let first = state.headCompleted(head)
        #expect(first && !state.isAwaitingHead)
        let second = state.headCompleted(ResponseHeadParser.Head(status: .notFound, fields: [:]))
        #expect(!second)
        guard case .headReady(7, let kept, .pending([])) = state.phase else {
            Issue.record("not ready: \(state.phase)")
            return
        }
        #expect(kept == head)
    }

    @Test func aBodyBeforeItsHeadIsRefused() {
        var state = state()
        var made = 0
        guard case .bodyBeforeHead = receive([1, 2], into: &state, made: &made) else {
            Issue.record("accepted")
            return
        }
        #expect(made == 0 && state.isAwaitingHead)
    }

    @Test func aSmallBodyThatEndsInItsRoundIsHandedOverWholeWithoutAStream() {
        var state = state()
        var made = 0
        _ = state.headCompleted(head)
        guard case .buffered = receive([1, 2, 3], into: &state, made: &made),
            case .buffered = receive([4], into: &state, made: &made)
        else {
            Issue.record("not buffered")
            return
        }
        guard case .none = state.completed() else {
            Issue.record("completion asked for something")
            return
        }
        guard let handOver = state.roundEnded(makeStream: noStream) else {
            Issue.record("nothing handed over")
            return
        }
        guard case .whole([1, 2, 3, 4]) = handOver.body else {
            Issue.record("not whole: \(handOver.body)")
            return
        }
        #expect(handOver.waiter == 7 && handOver.head == head && handOver.firstWrite == nil && made == 0)
        guard case .ended = state.phase else {
            Issue.record("not ended: \(state.phase)")
            return
        }
        let again = state.roundEnded(makeStream: noStream)
        #expect(again == nil)
    }

    @Test func aBodyStillComingAtTheEndOfTheRoundStreamsWithWhatCameFirst() {
        var state = state()
        var made = 0
        _ = state.headCompleted(head)
        _ = receive([1, 2], into: &state, made: &made)
        let handOver = state.roundEnded(makeStream: {
            made += 1
            return ("stream", "writer")
        })
        guard let handOver, case .stream("stream") = handOver.body else {
            Issue.record("no stream handed over")
            return
        }
        #expect(handOver.firstWrite?.writer == "writer" && handOver.firstWrite?.bytes == [1, 2] && made == 1)
        guard case .write("writer") = receive([3], into: &state, made: &made) else {
            Issue.record("later chunks not written")
            return
        }
        guard case .finish("writer") = state.completed() else {
            Issue.record("not finished")
            return
        }
        guard case .ended = state.phase else {
            Issue.record("not ended: \(state.phase)")
            return
        }
    }

    @Test func aHeadWithNoBodyYetHandsOverAStreamWithNoFirstWrite() {
        var state = state()
        _ = state.headCompleted(head)
        let handOver = state.roundEnded(makeStream: { ("stream", "writer") })
        #expect(handOver?.firstWrite == nil)
        guard case .streaming("writer") = state.phase else {
            Issue.record("not streaming: \(state.phase)")
            return
        }
    }

    @Test func pendingBytesPastTheLimitStartTheStreamWithinTheRound() {
        var state = state(pendingLimit: 4)
        var made = 0
        _ = state.headCompleted(head)
        _ = receive([1, 2], into: &state, made: &made)
        guard case .startedStream("writer1", [1, 2, 3, 4, 5]) = receive([3, 4, 5], into: &state, made: &made) else {
            Issue.record("no stream started")
            return
        }
        guard case .write("writer1") = receive([6], into: &state, made: &made) else {
            Issue.record("not written to the same stream")
            return
        }
        guard case .finish("writer1") = state.completed() else {
            Issue.record("not finished")
            return
        }
        let handOver = state.roundEnded(makeStream: noStream)
        guard let handOver, case .stream("stream1") = handOver.body else {
            Issue.record("the started stream was not handed over")
            return
        }
        #expect(handOver.firstWrite == nil && made == 1)
        guard case .ended = state.phase else {
            Issue.record("not ended: \(state.phase)")
            return
        }
    }

    @Test func aBodyKeptWholeRefusesTheChunkThatPassesItsLimitAndKeepsWhatCame() {
        var state = state(pendingLimit: .max, bufferedLimit: 4)
        var made = 0
        _ = state.headCompleted(head)
        _ = receive([1, 2, 3], into: &state, made: &made)
        guard case .exceedsBufferedLimit(4) = receive([4, 5], into: &state, made: &made) else {
            Issue.record("not refused")
            return
        }
        guard case .headReady(_, _, .pending([1, 2, 3])) = state.phase else {
            Issue.record("lost what came: \(state.phase)")
            return
        }
    }

    @Test func aFailureBeforeTheHeadThrowsToTheWaiterOnce() {
        var state = state()
        guard case .throwToWaiter(7) = state.failed(makeStream: noStream) else {
            Issue.record("waiter not failed")
            return
        }
        guard case .none = state.failed(makeStream: noStream) else {
            Issue.record("failed twice")
            return
        }
        let again = state.roundEnded(makeStream: noStream)
        #expect(again == nil)
    }

    @Test func aTransferThatEndsWithoutAHeadIsReportedAsMissingIt() {
        var state = state()
        guard case .missingHead = state.completed() else {
            Issue.record("missing head not reported")
            return
        }
        #expect(state.isAwaitingHead)
    }

    @Test func aFailureAfterTheHeadFailsTheBodyAndStillHandsOverTheHead() {
        var state = state()
        var made = 0
        _ = state.headCompleted(head)
        _ = receive([9], into: &state, made: &made)
        let action = state.failed(makeStream: { ("stream", "writer") })
        guard case .failStream("writer", bytesFirst: [9]) = action else {
            Issue.record("body not failed: \(action)")
            return
        }
        let handOver = state.roundEnded(makeStream: noStream)
        guard let handOver, case .stream("stream") = handOver.body else {
            Issue.record("head not handed over")
            return
        }
        #expect(handOver.firstWrite == nil)
        guard case .afterEnd = receive([1], into: &state, made: &made) else {
            Issue.record("bytes taken after the end")
            return
        }
    }

    @Test func aFailureWhileStreamingFailsTheWriterAndEnds() {
        var state = state()
        _ = state.headCompleted(head)
        _ = state.roundEnded(makeStream: { ("stream", "writer") })
        guard case .failStream("writer", bytesFirst: []) = state.failed(makeStream: noStream) else {
            Issue.record("writer not failed")
            return
        }
        guard case .none = state.completed(), case .ended = state.phase else {
            Issue.record("not ended: \(state.phase)")
            return
        }
    }

    @Test func aWholeBodyIsNotSpoiledByALateFailure() {
        var state = state()
        _ = state.headCompleted(head)
        _ = state.completed()
        guard case .none = state.failed(makeStream: noStream) else {
            Issue.record("a finished body was failed")
            return
        }
        guard case .whole([])? = state.roundEnded(makeStream: noStream)?.body else {
            Issue.record("not whole")
            return
        }
    }
}
