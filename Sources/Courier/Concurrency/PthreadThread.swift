#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Starts Courier's own threads (the curl I/O thread, the C library's callback threads) with
/// pthreads: Foundation's `Thread` is in full Foundation only, which the core and the C library
/// do without (FoundationEssentials has no threads).
package enum PthreadThread {
    /// Runs `body` on a new detached thread named `name` (at most 15 bytes are kept on Linux).
    ///
    /// - Returns: `false` when no thread could be made (the system's limit); `body` then never runs.
    @discardableResult
    package static func start(named name: String, _ body: @escaping @Sendable () -> Void) -> Bool {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        let start = Unmanaged.passRetained(Start(name: name, body: body)).toOpaque()
        #if canImport(Darwin)
        var thread: pthread_t?
        #else
        var thread = pthread_t()
        #endif
        let created = pthread_create(
            &thread, &attributes,
            { raw in
                #if canImport(Darwin)
                let start = Unmanaged<Start>.fromOpaque(raw).takeRetainedValue()
                #else
                let start = Unmanaged<Start>.fromOpaque(raw!).takeRetainedValue()
                #endif
                ThreadName.setCurrent(start.name)
                start.body()
                return nil
            }, start)
        guard created == 0 else {
            Unmanaged<Start>.fromOpaque(start).release()
            return false
        }
        return true
    }

    /// What a new thread runs, handed over as the thread's argument.
    private final class Start {
        let name: String
        let body: @Sendable () -> Void

        init(name: String, body: @escaping @Sendable () -> Void) {
            self.name = name
            self.body = body
        }
    }
}
