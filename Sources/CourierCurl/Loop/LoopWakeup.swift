import CCurl

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The I/O thread's doorbell: any thread rings it to end a wait in `SocketPoller.wait`.
///
/// An eventfd on Linux (one descriptor, one counter), a non-blocking pipe elsewhere. Ringing
/// twice before the thread drains it still wakes it once; the thread drains it after each wait.
final class LoopWakeup: Sendable {
    /// The descriptor the poller watches for reading.
    let readDescriptor: Int32
    private let writeDescriptor: Int32

    /// `nil` when the process is out of descriptors.
    init?() {
        #if os(Linux)
        let descriptor = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        guard descriptor >= 0 else { return nil }
        readDescriptor = descriptor
        writeDescriptor = descriptor
        #else
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        readDescriptor = ends[0]
        writeDescriptor = ends[1]
        #endif
    }

    deinit {
        close(readDescriptor)
        if writeDescriptor != readDescriptor { close(writeDescriptor) }
    }

    /// Wakes the I/O thread; safe from any thread, never blocks (a full pipe is already ringing).
    func ring() {
        var one: UInt64 = 1
        _ = withUnsafeBytes(of: &one) { write(writeDescriptor, $0.baseAddress, $0.count) }
    }

    /// Takes every ring so far; on the I/O thread, after a wait saw the descriptor readable.
    ///
    /// One read empties an eventfd (it returns the counter and zeroes it), so a wake costs one
    /// `read`, not a second one that fails with `EAGAIN`; a pipe is read until it is empty.
    func drain() {
        var buffer: UInt64 = 0
        #if os(Linux)
        _ = withUnsafeMutableBytes(of: &buffer) { read(readDescriptor, $0.baseAddress, $0.count) }
        #else
        while withUnsafeMutableBytes(of: &buffer, { read(readDescriptor, $0.baseAddress, $0.count) }) > 0 {}
        #endif
    }
}
