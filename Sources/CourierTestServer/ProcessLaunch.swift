public import Foundation
import Synchronization

/// Starts child processes one at a time across the whole test process.
///
/// Foundation's `Process.run()` on Linux is not safe to call from several threads at once (a
/// test run crashed in `memcpy` inside it while suites started `curl`, `cc` and `courier`
/// concurrently), and Swift Testing runs suites in parallel. Only the launch is serialised;
/// the processes themselves run side by side.
public enum ProcessLaunch {
    private static let lock = Mutex(())

    /// Launches `process`, waiting for any other launch in this process to finish first.
    public static func run(_ process: Process) throws {
        try lock.withLock { _ in try process.run() }
    }

    /// Launches `process` and waits for it to exit without holding a thread; returns its exit status.
    public static func exitStatus(of process: Process) async throws -> Int32 {
        try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do {
                try run(process)
            } catch {
                process.terminationHandler = nil
                continuation.resume(throwing: error)
            }
        }
    }
}
