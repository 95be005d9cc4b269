import CCurl

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The sockets curl asked the I/O thread to watch, and the wait for them: epoll on Linux, where
/// a wait costs the same with 1 or 1,000 idle connections, and poll(2) elsewhere (and in tests).
///
/// curl says what to watch through its socket callback (`watch`, `unwatch`); `wait` returns the
/// sockets that are ready, as `curl_multi_socket_action` wants them, and drains the wakeup.
/// Used on the I/O thread only.
final class SocketPoller {
    /// A socket that is ready, with curl's `CURL_CSELECT_*` bits.
    struct Readiness {
        var socket: Int32
        var mask: Int32

        /// Whether curl may read (`CURL_CSELECT_IN`).
        var isReadable: Bool { mask & CURL_CSELECT_IN != 0 }
        /// Whether curl may write (`CURL_CSELECT_OUT`).
        var isWritable: Bool { mask & CURL_CSELECT_OUT != 0 }
    }

    enum Backend {
        case epoll
        case poll

        /// epoll where the system has it.
        static var preferred: Backend {
            #if os(Linux)
            .epoll
            #else
            .poll
            #endif
        }
    }

    private let wakeup: LoopWakeup
    private let backend: Backend
    #if os(Linux)
    private let epoll: Int32
    private var epollEvents: [epoll_event]
    #endif
    /// The poll(2) backend's set, the wakeup first, and where each socket sits in it.
    private var pollSet: [pollfd] = []
    private var pollIndex: [Int32: Int] = [:]

    /// `nil` when the system refuses a descriptor.
    init?(wakeup: LoopWakeup, backend: Backend = .preferred) {
        self.wakeup = wakeup
        self.backend = backend
        #if os(Linux)
        epollEvents = Array(repeating: epoll_event(), count: 64)
        if backend == .epoll {
            epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
            guard epoll >= 0 else { return nil }
            var event = epoll_event()
            event.events = EPOLLIN.rawValue
            event.data.fd = wakeup.readDescriptor
            guard epoll_ctl(epoll, EPOLL_CTL_ADD, wakeup.readDescriptor, &event) == 0 else {
                close(epoll)
                return nil
            }
        } else {
            epoll = -1
        }
        #else
        guard backend == .poll else { return nil }
        #endif
        pollSet = [pollfd(fd: wakeup.readDescriptor, events: Int16(POLLIN), revents: 0)]
    }

    deinit {
        #if os(Linux)
        if epoll >= 0 { close(epoll) }
        #endif
    }

    /// Watches `socket` for reading and/or writing, replacing what was watched before.
    /// `isNew` says curl has not asked for this socket since it was last unwatched.
    func watch(_ socket: Int32, read: Bool, write: Bool, isNew: Bool) {
        switch backend {
        case .epoll:
            #if os(Linux)
            var event = epoll_event()
            event.events = (read ? EPOLLIN.rawValue : 0) | (write ? EPOLLOUT.rawValue : 0)
            event.data.fd = socket
            if epoll_ctl(epoll, isNew ? EPOLL_CTL_ADD : EPOLL_CTL_MOD, socket, &event) != 0 {
                // A descriptor number curl closed and opened again may still be known, or already gone: try the other operation.
                _ = epoll_ctl(epoll, isNew ? EPOLL_CTL_MOD : EPOLL_CTL_ADD, socket, &event)
            }
            #endif
        case .poll:
            let events = Int16((read ? POLLIN : 0) | (write ? POLLOUT : 0))
            if let index = pollIndex[socket] {
                pollSet[index].events = events
            } else {
                pollIndex[socket] = pollSet.count
                pollSet.append(pollfd(fd: socket, events: events, revents: 0))
            }
        }
    }

    /// Stops watching `socket` (curl is about to close it or no longer needs it).
    func unwatch(_ socket: Int32) {
        switch backend {
        case .epoll:
            #if os(Linux)
            _ = epoll_ctl(epoll, EPOLL_CTL_DEL, socket, nil)
            #endif
        case .poll:
            guard let index = pollIndex.removeValue(forKey: socket) else { return }
            let last = pollSet.count - 1
            if index != last {
                pollSet[index] = pollSet[last]
                pollIndex[pollSet[index].fd] = index
            }
            pollSet.removeLast()
        }
    }

    /// Waits up to `milliseconds` (0 returns at once, -1 waits for ever) and appends the ready
    /// sockets to `ready`; a ring of the wakeup ends the wait and is drained, but not reported.
    func wait(milliseconds: Int32, into ready: inout [Readiness]) {
        switch backend {
        case .epoll:
            #if os(Linux)
            let count = epoll_wait(epoll, &epollEvents, Int32(epollEvents.count), milliseconds)
            guard count > 0 else { return }
            for index in 0..<Int(count) {
                let event = epollEvents[index]
                let socket = event.data.fd
                if socket == wakeup.readDescriptor {
                    wakeup.drain()
                    continue
                }
                ready.append(
                    Readiness(
                        socket: socket,
                        mask: Self.mask(
                            readable: event.events & (EPOLLIN.rawValue | EPOLLHUP.rawValue) != 0,
                            writable: event.events & EPOLLOUT.rawValue != 0,
                            failed: event.events & EPOLLERR.rawValue != 0)))
            }
            #endif
        case .poll:
            let count = poll(&pollSet, nfds_t(pollSet.count), milliseconds)
            guard count > 0 else { return }
            if pollSet[0].revents != 0 { wakeup.drain() }
            for entry in pollSet.dropFirst() where entry.revents != 0 {
                let events = Int32(entry.revents)
                ready.append(
                    Readiness(
                        socket: entry.fd,
                        mask: Self.mask(
                            readable: events & Int32(POLLIN | POLLHUP) != 0,
                            writable: events & Int32(POLLOUT) != 0,
                            failed: events & Int32(POLLERR | POLLNVAL) != 0)))
            }
        }
    }

    private static func mask(readable: Bool, writable: Bool, failed: Bool) -> Int32 {
        (readable ? CURL_CSELECT_IN : 0) | (writable ? CURL_CSELECT_OUT : 0) | (failed ? CURL_CSELECT_ERR : 0)
    }
}
