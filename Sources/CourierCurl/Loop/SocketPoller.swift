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
/// Used on the I/O thread only, so its state skips exclusivity checks (see `CurlLoopDriver`).
///
/// A keep-alive connection is unwatched when its transfer ends and watched again when the next
/// one starts: with epoll, two system calls per request. A connection socket, whose closing the
/// poller hears of (`adoptConnection`, `connectionClosing`), is instead left registered for
/// reading while idle ("parked"): watching it again for reading costs nothing, and the first
/// event it reports while parked (the server closed it) removes it, so an idle connection never
/// makes the loop spin.
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
    @exclusivity(unchecked) private var epollEvents: [epoll_event]
    #endif
    /// The epoll backend's view of its set: what each socket is registered for.
    @exclusivity(unchecked) private var registrations: [Int32: Registration] = [:]
    /// `epoll_ctl` calls made, for the tests that pin when they are avoided.
    @exclusivity(unchecked) private(set) var controlCalls = 0
    /// The poll(2) backend's set, the wakeup first, and where each socket sits in it.
    @exclusivity(unchecked) private var pollSet: [pollfd] = []
    @exclusivity(unchecked) private var pollIndex: [Int32: Int] = [:]

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
    /// `isNew` says curl has not asked for this socket since it was last unwatched: unless the
    /// socket is an adopted connection, its number may then belong to a socket opened since.
    func watch(_ socket: Int32, read: Bool, write: Bool, isNew: Bool) {
        switch backend {
        case .epoll:
            #if os(Linux)
            let events = (read ? EPOLLIN.rawValue : 0) | (write ? EPOLLOUT.rawValue : 0)
            var registration = registrations[socket] ?? Registration()
            let isTrusted = registration.isConnection || !isNew
            registration.isParked = false
            if !isTrusted || registration.events != events {
                // A number curl closed and opened again may still be known, or already gone: the
                // other operation then succeeds.
                let operation = isTrusted && registration.events != nil ? EPOLL_CTL_MOD : EPOLL_CTL_ADD
                if control(operation, socket, events) != 0 {
                    _ = control(operation == EPOLL_CTL_ADD ? EPOLL_CTL_MOD : EPOLL_CTL_ADD, socket, events)
                }
                registration.events = events
            }
            registrations[socket] = registration
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

    /// Stops watching `socket` (curl no longer needs it, or is about to close it). An adopted
    /// connection watched for reading only stays registered, parked, until watched again, closed,
    /// or reported ready.
    func unwatch(_ socket: Int32) {
        switch backend {
        case .epoll:
            #if os(Linux)
            guard var registration = registrations[socket] else {
                _ = control(EPOLL_CTL_DEL, socket, 0)
                return
            }
            if registration.isConnection, registration.events == EPOLLIN.rawValue {
                registration.isParked = true
                registrations[socket] = registration
                return
            }
            deregister(socket, registration)
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

    /// Marks `socket` as a connection curl just opened, one whose closing `connectionClosing`
    /// reports, so that it may stay registered while idle.
    func adoptConnection(_ socket: Int32) {
        guard backend == .epoll else { return }
        // A registration left under this number belonged to a socket closed since (the kernel
        // dropped it then): the new socket starts unregistered.
        registrations[socket] = Registration(isConnection: true)
    }

    /// Forgets `socket`, which curl is about to close, and removes it from the set first: a copy
    /// of the descriptor in a forked child would otherwise keep it registered after the close.
    func connectionClosing(_ socket: Int32) {
        switch backend {
        case .epoll:
            #if os(Linux)
            guard let registration = registrations.removeValue(forKey: socket) else { return }
            if registration.events != nil { _ = control(EPOLL_CTL_DEL, socket, 0) }
            #endif
        case .poll:
            unwatch(socket)
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
                if let registration = registrations[socket], registration.isParked {
                    // Idle and not curl's concern: the server closed it, or sent what curl will
                    // find when it next uses the connection. Registered no longer, so it stops firing.
                    deregister(socket, registration)
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

    #if os(Linux)
    /// Removes `socket` from the epoll set; an adopted connection stays known, unregistered.
    private func deregister(_ socket: Int32, _ registration: Registration) {
        _ = control(EPOLL_CTL_DEL, socket, 0)
        registrations[socket] = registration.isConnection ? Registration(isConnection: true) : nil
    }

    private func control(_ operation: Int32, _ socket: Int32, _ events: UInt32) -> Int32 {
        controlCalls += 1
        var event = epoll_event()
        event.events = events
        event.data.fd = socket
        return epoll_ctl(epoll, operation, socket, &event)
    }
    #endif

    private static func mask(readable: Bool, writable: Bool, failed: Bool) -> Int32 {
        (readable ? CURL_CSELECT_IN : 0) | (writable ? CURL_CSELECT_OUT : 0) | (failed ? CURL_CSELECT_ERR : 0)
    }
}

extension SocketPoller {
    /// One socket in the epoll set, or an adopted connection not (or no longer) in it.
    struct Registration {
        /// The epoll events it is registered for; `nil` when it is not in the set.
        var events: UInt32?
        /// A connection opened by curl, whose closing the poller hears of before its number can
        /// be reused; only such a socket may stay registered while curl is not watching it.
        var isConnection = false
        /// Registered for reading while curl is not watching it.
        var isParked = false
    }
}
