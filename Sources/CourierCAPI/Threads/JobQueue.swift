import Foundation

/// The jobs and closures waiting for a Courier thread, and the condition threads sleep on.
final class JobQueue: @unchecked Sendable {
    enum Work {
        case job(UnownedJob)
        case closure(@Sendable () -> Void)
    }

    private let condition = NSCondition()
    /// Waiting work from `head` on; taken slots are cleared at once, so a closure that ran
    /// releases what it captured (a request body, a C callback's user data) right away.
    /// Unchecked: read and written only under `condition`'s lock, and each checked access cost a
    /// runtime call several times per blocking send.
    @exclusivity(unchecked) private var items: [Work?] = []
    @exclusivity(unchecked) private var head = 0

    func push(_ work: Work) {
        condition.lock()
        items.append(work)
        condition.unlock()
        condition.broadcast()
    }

    /// Wakes every waiting thread so it checks its condition again.
    func wake() {
        condition.lock()
        condition.unlock()
        condition.broadcast()
    }

    /// The next work item, waiting for one; `nil` once `isDone` holds.
    func next(until isDone: () -> Bool) -> Work? {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if isDone() { return nil }
            if head < items.count {
                let work = items[head].take()!
                head += 1
                if head == items.count {
                    items.removeAll(keepingCapacity: true)
                    head = 0
                } else if head > 64, head * 2 > items.count {
                    items.removeFirst(head)
                    head = 0
                }
                return work
            }
            condition.wait()
        }
    }

    /// Runs queued work on the current thread, as `executor`, until `isDone` holds; the thread
    /// counts as draining `executor` meanwhile, so a blocking wait inside the work drains it too.
    func drain(as executor: some DrainingExecutor, until isDone: () -> Bool) {
        let role = ThreadRole.current
        role.executors.append(executor)
        defer { role.executors.removeLast() }
        while let work = next(until: isDone) {
            switch work {
            case .job(let job): job.runSynchronously(on: executor.asUnownedTaskExecutor())
            case .closure(let body): body()
            }
        }
    }
}
