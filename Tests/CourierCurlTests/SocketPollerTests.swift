import Foundation
import Testing

@testable import CourierCurl

#if canImport(Glibc)
import Glibc
#endif

@Suite("SocketPoller: the I/O thread's wait, on epoll and on poll(2)")
struct SocketPollerTests {
    static let backends: [SocketPoller.Backend] = [.epoll, .poll]

    @Test(arguments: backends)
    func aSocketWithBytesToReadIsReportedReadable(_ backend: SocketPoller.Backend) throws {
        let (poller, pair) = try Self.poller(backend)
        defer { pair.close() }
        poller.watch(pair.near, read: true, write: false, isNew: true)
        var ready: [SocketPoller.Readiness] = []
        poller.wait(milliseconds: 0, into: &ready)
        #expect(ready.isEmpty, "nothing was written yet")
        pair.writeFar("x")
        poller.wait(milliseconds: 1000, into: &ready)
        #expect(ready.map(\.socket) == [pair.near])
        #expect(ready.first?.isReadable == true)
    }

    @Test(arguments: backends)
    func watchingForWritingReportsAWritableSocketAndModifyingTheWatchStopsIt(_ backend: SocketPoller.Backend) throws {
        let (poller, pair) = try Self.poller(backend)
        defer { pair.close() }
        poller.watch(pair.near, read: false, write: true, isNew: true)
        var ready: [SocketPoller.Readiness] = []
        poller.wait(milliseconds: 1000, into: &ready)
        #expect(ready.first?.isWritable == true)
        ready.removeAll()
        poller.watch(pair.near, read: true, write: false, isNew: false)
        poller.wait(milliseconds: 0, into: &ready)
        #expect(ready.isEmpty, "watching for reading only, with nothing to read")
    }

    @Test(arguments: backends)
    func anUnwatchedSocketIsNoLongerReported(_ backend: SocketPoller.Backend) throws {
        let (poller, pair) = try Self.poller(backend)
        defer { pair.close() }
        poller.watch(pair.near, read: true, write: false, isNew: true)
        pair.writeFar("x")
        poller.unwatch(pair.near)
        var ready: [SocketPoller.Readiness] = []
        poller.wait(milliseconds: 0, into: &ready)
        #expect(ready.isEmpty)
    }

    @Test(arguments: backends)
    func aRingFromAnotherThreadEndsTheWaitWithoutReportingASocket(_ backend: SocketPoller.Backend) throws {
        let wakeup = try #require(LoopWakeup())
        let poller = try #require(SocketPoller(wakeup: wakeup, backend: backend))
        let ringer = Thread {
            usleep(50_000)
            wakeup.ring()
            wakeup.ring()
        }
        let start = ContinuousClock.now
        ringer.start()
        var ready: [SocketPoller.Readiness] = []
        poller.wait(milliseconds: 10_000, into: &ready)
        #expect(ContinuousClock.now - start < .seconds(5))
        #expect(ready.isEmpty)
        poller.wait(milliseconds: 0, into: &ready)
        #expect(ready.isEmpty, "both rings were drained by the first wait")
    }

    @Test func anIdleConnectionIsWatchedAgainWithoutASystemCall() throws {
        let (poller, pair) = try Self.poller(.epoll)
        defer { pair.close() }
        poller.adoptConnection(pair.near)
        poller.watch(pair.near, read: true, write: false, isNew: true)
        let afterFirstWatch = poller.controlCalls
        poller.unwatch(pair.near)
        poller.watch(pair.near, read: true, write: false, isNew: true)
        #expect(poller.controlCalls == afterFirstWatch, "the connection stayed registered while idle")
        pair.writeFar("x")
        var ready: [SocketPoller.Readiness] = []
        poller.wait(milliseconds: 1000, into: &ready)
        #expect(ready.map(\.socket) == [pair.near])
    }

    @Test func anIdleConnectionThatBecomesReadableIsDroppedNotReported() throws {
        let (poller, pair) = try Self.poller(.epoll)
        defer { pair.close() }
        poller.adoptConnection(pair.near)
        poller.watch(pair.near, read: true, write: false, isNew: true)
        poller.unwatch(pair.near)
        pair.writeFar("x")
        var ready: [SocketPoller.Readiness] = []
        poller.wait(milliseconds: 1000, into: &ready)
        #expect(ready.isEmpty, "curl is not watching it")
        let afterDrop = poller.controlCalls
        poller.wait(milliseconds: 0, into: &ready)
        #expect(ready.isEmpty)
        #expect(poller.controlCalls == afterDrop, "it left the set at its first event, so it fires no more")
        poller.watch(pair.near, read: true, write: false, isNew: true)
        poller.wait(milliseconds: 1000, into: &ready)
        #expect(ready.map(\.socket) == [pair.near], "watched again, it is registered again")
    }

    @Test func anIdleConnectionLastWatchedForWritingLeavesTheSet() throws {
        let (poller, pair) = try Self.poller(.epoll)
        defer { pair.close() }
        poller.adoptConnection(pair.near)
        poller.watch(pair.near, read: false, write: true, isNew: true)
        poller.unwatch(pair.near)
        var ready: [SocketPoller.Readiness] = []
        poller.wait(milliseconds: 0, into: &ready)
        #expect(ready.isEmpty, "a writable idle socket would fire at every wait")
    }

    @Test(arguments: [true, false])
    func aNumberReusedAfterAConnectionClosedIsWatchedAsTheNewSocket(newSocketIsAConnection: Bool) throws {
        let (poller, first) = try Self.poller(.epoll)
        let number = first.near
        poller.adoptConnection(number)
        poller.watch(number, read: true, write: false, isNew: true)
        poller.unwatch(number)
        poller.connectionClosing(number)
        let second = try SocketPair()
        // The first socket's number for the new socket, as the kernel reuses a freed number. `dup2`
        // closes the first socket and hands its number on in one step: closing it first and counting
        // on getting the number back raced the suite's other tests, one of which could take the
        // number in between and then lose its socket to `dup2` (the process died of SIGPIPE).
        #expect(dup2(second.near, number) == number)
        _ = Glibc.close(second.near)
        _ = Glibc.close(first.far)
        defer {
            _ = Glibc.close(number)
            _ = Glibc.close(second.far)
        }
        if newSocketIsAConnection { poller.adoptConnection(number) }
        poller.watch(number, read: true, write: false, isNew: true)
        second.writeFar("x")
        var ready: [SocketPoller.Readiness] = []
        poller.wait(milliseconds: 1000, into: &ready)
        #expect(ready.map(\.socket) == [number])
    }

    private static func poller(_ backend: SocketPoller.Backend) throws -> (SocketPoller, SocketPair) {
        let wakeup = try #require(LoopWakeup())
        return (try #require(SocketPoller(wakeup: wakeup, backend: backend)), try SocketPair())
    }
}

/// Two connected Unix stream sockets: the poller watches `near`, the test writes to `far`.
private struct SocketPair {
    let near: Int32
    let far: Int32

    init() throws {
        var ends: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0 else { throw POSIXError(.EMFILE) }
        near = ends[0]
        far = ends[1]
    }

    func writeFar(_ text: String) {
        _ = text.utf8CString.withUnsafeBufferPointer { write(far, $0.baseAddress, text.utf8.count) }
    }

    func close() {
        _ = Glibc.close(near)
        _ = Glibc.close(far)
    }
}
