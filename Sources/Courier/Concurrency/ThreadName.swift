#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Names the calling thread, for the threads Courier starts itself.
///
/// Foundation's `Thread.name` cannot do it on Linux: its setter names the thread only once the
/// `Thread` object knows its pthread, which `start()` records after the thread is created. Set
/// before `start()`, or early on the new thread when the creator has not yet returned, the name is
/// dropped at random. So the running thread names itself: on Linux by writing its
/// `/proc/thread-self/comm`, which is what glibc's `pthread_setname_np` does for another thread
/// (Swift's Glibc module does not export that function). Linux keeps at most 15 bytes and refuses
/// a longer name outright, so names are kept short and cut to 15 bytes when they are not.
package enum ThreadName {
    /// Gives the calling thread `name`, cut to its first 15 bytes of UTF-8.
    package static func setCurrent(_ name: String) {
        #if canImport(Darwin)
        _ = pthread_setname_np(name)
        #else
        let descriptor = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        var bytes = Array(name.utf8.prefix(15))
        _ = write(descriptor, &bytes, bytes.count)
        #endif
    }
}
