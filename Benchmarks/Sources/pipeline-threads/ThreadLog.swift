import Foundation
import Synchronization

/// Which thread each stage of a send ran on, in the order the stages ran.
final class ThreadLog: Sendable {
    struct Entry: Sendable {
        let stage: String
        let thread: UInt
        let isMain: Bool
    }

    private let entries = Mutex<[Entry]>([])

    /// Notes that `stage` is running now, on the current thread.
    func record(_ stage: String) {
        let entry = Entry(stage: stage, thread: UInt(pthread_self()), isMain: Thread.isMainThread)
        entries.withLock { $0.append(entry) }
    }

    /// Everything recorded so far, and clears the log.
    func drain() -> [Entry] {
        entries.withLock { entries in
            defer { entries.removeAll() }
            return entries
        }
    }
}
