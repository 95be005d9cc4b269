#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A thread's identity, for state bound to one thread to check, in debug builds, that it is used
/// there only, as SwiftNIO's `assertInEventLoop` checks an event loop's: the curl I/O thread's
/// loop members, and a transfer's callbacks on the thread that drives it.
///
/// `assertCurrent` is an `assert`, so release builds pay nothing for it.
struct ThreadIdentity: Equatable, Sendable {
    /// The identity as a number (`pthread_t`); never 0 for a running thread.
    let raw: UInt

    /// The calling thread.
    static var current: ThreadIdentity {
        #if canImport(Darwin)
        ThreadIdentity(raw: UInt(bitPattern: pthread_self()))
        #else
        ThreadIdentity(raw: UInt(pthread_self()))
        #endif
    }

    /// Stops a debug build unless the calling thread is this one.
    func assertCurrent(file: StaticString = #fileID, line: UInt = #line) {
        assert(self == .current, "called off the thread that owns this state", file: file, line: line)
    }
}
