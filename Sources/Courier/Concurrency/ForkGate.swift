import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Brings Courier's own threads to a safe point before `fork()`, as gRPC does with its threads.
///
/// A thread caught by a fork in the middle of its work may hold a lock of the Swift runtime (its
/// metadata caches are filled under one, the first time each type is used), and in the child no
/// thread ever releases it: the child's first use of such a type hangs. So the fork handlers close
/// this gate and wait until every thread that joined it (the curl I/O threads, the C library's
/// callback threads) is between two pieces of work, waiting for the next, holding nothing; a thread
/// that would start work meanwhile parks until the fork is done. A thread held longer (a C callback
/// that blocks) is waited for at most `longestWait`; the fork then goes ahead without it. A
/// thread that works without pause (the curl I/O thread under load) passes a `checkpoint` every
/// round, so a fork, even one that only execs a program, waits microseconds, not `longestWait`.
///
/// Cost to a thread: two stores and a load per piece of work, to its own slot, and a load per
/// checkpoint.
///
/// Unchecked `Sendable`: `members` is read and written only while `lock` is held; the rest is
/// atomics and constants.
package final class ForkGate: @unchecked Sendable {
    /// The gate every Courier thread joins.
    package static let shared = ForkGate()

    /// How long a fork waits for a busy thread.
    let longestWait: Duration

    /// One thread's slot: whether it is working now.
    package final class Member: Sendable {
        fileprivate let working = Atomic<Bool>(false)
        fileprivate let thread: pthread_t

        fileprivate init() { thread = pthread_self() }
    }

    private let closed = Atomic<Bool>(false)
    /// Guards `members` and the parking of threads; held by the forking thread through the fork.
    private let lock: UnsafeMutablePointer<pthread_mutex_t>
    private let reopened: UnsafeMutablePointer<pthread_cond_t>
    private var members: [Member] = []

    /// A gate of its own; Courier's threads join `shared`. (Tests make their own.)
    init(longestWait: Duration = .milliseconds(250)) {
        self.longestWait = longestWait
        lock = .allocate(capacity: 1)
        pthread_mutex_init(lock, nil)
        reopened = .allocate(capacity: 1)
        pthread_cond_init(reopened, nil)
        _ = ForkGeneration.current  // the fork handlers must be in place before any fork
    }

    /// Joins the calling thread to the gate; call `leave` before the thread ends.
    package func join() -> Member {
        let member = Member()
        pthread_mutex_lock(lock)
        members.append(member)
        pthread_mutex_unlock(lock)
        return member
    }

    /// Removes `member`: its thread is ending.
    package func leave(_ member: Member) {
        member.working.store(false, ordering: .sequentiallyConsistent)
        pthread_mutex_lock(lock)
        members.removeAll { $0 === member }
        pthread_mutex_unlock(lock)
    }

    /// The thread of `member` starts a piece of work; while a fork is being prepared, it first
    /// waits for the fork to be done.
    @inline(__always)
    package func beginWork(_ member: Member) {
        member.working.store(true, ordering: .sequentiallyConsistent)
        if closed.load(ordering: .sequentiallyConsistent) { park(member) }
    }

    /// The thread of `member`, at work, is at a point where it holds nothing: while a fork is being
    /// prepared, it waits there for the fork to be done.
    @inline(__always)
    package func checkpoint(_ member: Member) {
        if closed.load(ordering: .sequentiallyConsistent) { park(member) }
    }

    /// The thread of `member` finished its piece of work and will wait for the next.
    @inline(__always)
    package func endWork(_ member: Member) {
        member.working.store(false, ordering: .sequentiallyConsistent)
    }

    private func park(_ member: Member) {
        member.working.store(false, ordering: .sequentiallyConsistent)
        pthread_mutex_lock(lock)
        while closed.load(ordering: .sequentiallyConsistent) { pthread_cond_wait(reopened, lock) }
        member.working.store(true, ordering: .sequentiallyConsistent)
        pthread_mutex_unlock(lock)
    }

    /// Before a fork: closes the gate and waits, at most `longestWait`, until no member but the
    /// forking thread works. Holds the lock until `reopen`.
    func close() {
        pthread_mutex_lock(lock)
        closed.store(true, ordering: .sequentiallyConsistent)
        let me = pthread_self()
        let clock = ContinuousClock()
        let deadline = clock.now + longestWait
        var pause = timespec(tv_sec: 0, tv_nsec: 20_000)
        while members.contains(where: {
            pthread_equal($0.thread, me) == 0 && $0.working.load(ordering: .sequentiallyConsistent)
        }),
            clock.now < deadline
        {
            nanosleep(&pause, nil)
        }
    }

    /// After a fork, in the parent: opens the gate and wakes the parked threads. In the child:
    /// opens it; the members are the parent's threads, which the child does not have.
    func reopen(inChild: Bool) {
        closed.store(false, ordering: .sequentiallyConsistent)
        if inChild {
            members.removeAll { pthread_equal($0.thread, pthread_self()) == 0 }
            // Its waiters were the parent's threads: start it afresh, with none.
            pthread_cond_init(reopened, nil)
        } else {
            pthread_cond_broadcast(reopened)
        }
        pthread_mutex_unlock(lock)
    }
}
