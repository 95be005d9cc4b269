import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The body piped to `courier`, as HTTPie reads it: only when standard input is not a terminal.
enum StandardInput {
    /// The piped bytes, or `nil` when standard input is a terminal or nothing was piped.
    ///
    /// The read blocks, so it runs on a thread of its own rather than on Swift's cooperative pool.
    static func read() async -> Data? {
        guard isatty(STDIN_FILENO) == 0 else { return nil }
        let data = await withCheckedContinuation { (continuation: CheckedContinuation<Data, Never>) in
            Thread.detachNewThread {
                continuation.resume(returning: (try? FileHandle.standardInput.readToEnd()) ?? Data())
            }
        }
        return data.isEmpty ? nil : data
    }
}
