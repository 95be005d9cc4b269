import Testing

@testable import Courier

/// `SharedTaskState` driven without tasks: waiters are plain strings.
@Suite("Shared task state")
struct SharedTaskStateTests {
    typealias Machine = SharedTaskState<Int, String>
    struct Failed: Error {}

    @Test func waitersAreKeptUntilTheWorkFinishesThenAllResumeWithItsResult() throws {
        var machine = Machine(cancelsWhenAbandoned: true)
        let joined = machine.join()
        #expect(joined)
        let first = machine.nextWaiterID(), second = machine.nextWaiterID()
        #expect(first != second)
        guard case .suspend = machine.wait(id: first, waiter: "a", isCancelled: false),
            case .suspend = machine.wait(id: second, waiter: "b", isCancelled: false)
        else {
            Issue.record("a member of running work waits")
            return
        }
        #expect(machine.finish(.success(7)).sorted() == ["a", "b"])
        guard case .finished(let result) = machine.phase else {
            Issue.record("finished")
            return
        }
        #expect(try result.get() == 7)
    }

    @Test func aMemberAskingAfterTheResultGetsItAtOnce() throws {
        var machine = Machine(cancelsWhenAbandoned: true)
        #expect(machine.finish(.failure(Failed())).isEmpty)
        let joined = machine.join()
        #expect(joined, "finished work can still be joined: its result is kept")
        guard case .resume(let result) = machine.wait(id: machine.nextWaiterID(), waiter: "late", isCancelled: false)
        else {
            Issue.record("a late member is answered at once")
            return
        }
        #expect(throws: Failed.self) { try result.get() }
    }

    @Test func aCancelledMemberLeavesAloneWhileOthersRemain() {
        var machine = Machine(cancelsWhenAbandoned: true)
        _ = machine.join()
        _ = machine.wait(id: 1, waiter: "a", isCancelled: false)
        _ = machine.wait(id: 2, waiter: "b", isCancelled: false)
        let left = machine.cancel(id: 1)
        #expect(left?.waiter == "a")
        #expect(left?.cancelsWork == false)
        #expect(machine.cancel(id: 1) == nil, "a waiter leaves once")
        #expect(machine.finish(.success(1)) == ["b"])
    }

    @Test func theLastMemberLeavingAbandonsWorkThatCancelsWhenAbandoned() {
        var machine = Machine(cancelsWhenAbandoned: true)
        _ = machine.join()
        _ = machine.wait(id: 1, waiter: "a", isCancelled: false)
        #expect(machine.cancel(id: 1)?.cancelsWork == false)
        guard case .leave(let cancelsWork) = machine.wait(id: 2, waiter: "b", isCancelled: true) else {
            Issue.record("a member cancelled before it waits leaves")
            return
        }
        #expect(cancelsWork)
        guard case .abandoned = machine.phase else {
            Issue.record("abandoned")
            return
        }
        let joined = machine.join()
        #expect(!joined, "abandoned work is never joined: a new caller starts fresh work")
        #expect(machine.finish(.failure(CancellationError())).isEmpty)
        guard case .abandoned = machine.phase else {
            Issue.record("stays abandoned")
            return
        }
    }

    @Test func workThatOutlivesItsMembersKeepsRunningForLaterOnes() throws {
        var machine = Machine(cancelsWhenAbandoned: false)
        _ = machine.wait(id: 1, waiter: "a", isCancelled: false)
        #expect(machine.cancel(id: 1)?.cancelsWork == false)
        let joined = machine.join()
        #expect(joined)
        guard case .suspend = machine.wait(id: 2, waiter: "b", isCancelled: false) else {
            Issue.record("a later member waits for the same work")
            return
        }
        #expect(machine.finish(.success(3)) == ["b"])
    }

    @Test func aCancellationAfterTheResultFindsNoWaiter() {
        var machine = Machine(cancelsWhenAbandoned: true)
        _ = machine.wait(id: 1, waiter: "a", isCancelled: false)
        #expect(machine.finish(.success(1)) == ["a"])
        #expect(machine.cancel(id: 1) == nil)
    }
}
