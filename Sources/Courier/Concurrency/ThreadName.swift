import Foundation

/// Names the calling thread, for the threads Courier starts itself.
///
/// On Linux, Foundation's `Thread.name` set before `start()` never reaches the kernel, so such a
/// thread keeps its creator's name in `top`, `perf` and `/proc`; set on the running thread, it
/// does. Linux keeps at most 15 bytes and refuses a longer name outright, so names are kept short.
package enum ThreadName {
    /// Gives the calling thread `name` (at most 15 bytes of UTF-8).
    package static func setCurrent(_ name: String) {
        Thread.current.name = name
    }
}
