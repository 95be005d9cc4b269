import Courier
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A loopback TCP server that follows a script byte by byte, for what the NIO test server cannot
/// show: a server that never answers, a body that never ends, and whether the client closed the connection.
///
/// Each accepted connection runs `script` on its own thread with blocking sockets; every socket
/// has a receive and send timeout, so no test can hang on it.
final class RawServer: Sendable {
    /// One accepted connection, seen from the server.
    struct Connection: Sendable {
        fileprivate let fd: Int32

        /// Reads until the end of a request head (`\r\n\r\n`); `false` if the client closed or timed out first.
        func readRequestHead() -> Bool {
            var received: [UInt8] = []
            var byte: UInt8 = 0
            while !received.suffix(4).elementsEqual([13, 10, 13, 10]) {
                guard recv(fd, &byte, 1, 0) == 1 else { return false }
                received.append(byte)
            }
            return true
        }

        /// Answers every request on the connection with an empty `204`, reading in blocks: a fast server
        /// for measuring the client. Assumes one request per read, as a sequential client sends them.
        func answerEveryRequestWithNoContent() {
            var buffer = [UInt8](repeating: 0, count: 16 * 1024)
            let response = Array("HTTP/1.1 204 No Content\r\n\r\n".utf8)
            while recv(fd, &buffer, buffer.count, 0) > 0 {
                guard send(response) else { return }
            }
        }

        /// Sends `bytes`; `false` once the client has gone (or the send timed out).
        @discardableResult
        func send(_ bytes: [UInt8]) -> Bool {
            var sent = 0
            while sent < bytes.count {
                let count = bytes[sent...].withUnsafeBytes {
                    Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
                }
                guard count > 0 else { return false }
                sent += count
            }
            return true
        }

        @discardableResult
        func send(_ text: String) -> Bool { send(Array(text.utf8)) }

        /// Sends a `200 OK` with `count` body bytes, byte `i` being `i % 256` (as `/bytes/{n}` does);
        /// `false` once the client has gone.
        @discardableResult
        func sendCountingBytes(_ count: Int) -> Bool {
            guard send("HTTP/1.1 200 OK\r\nContent-Length: \(count)\r\n\r\n") else { return false }
            let pattern = (0..<65536).map { UInt8(truncatingIfNeeded: $0) }
            var remaining = count
            while remaining > 0 {
                guard send(Array(pattern.prefix(remaining))) else { return false }
                remaining -= min(remaining, pattern.count)
            }
            return true
        }

        /// Waits until the client closes the connection; `false` if it is still open after the socket's timeout.
        func waitForClose() -> Bool {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = recv(fd, &buffer, buffer.count, 0)
                if count == 0 { return true }
                if count < 0 { return errno == ECONNRESET }
            }
        }
    }

    let port: Int
    private let listener: Int32
    private let stopped = Atomic(false)
    private let events = Protected<[String]>([])

    /// Starts listening on 127.0.0.1 at an ephemeral port; `script` runs once per accepted connection,
    /// each accepted `acceptDelay` after it is waiting in the backlog.
    init(
        timeout: Int = 10, acceptDelay: Duration = .zero, script: @escaping @Sendable (Connection, RawServer) -> Void
    ) throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(listener, address, length) == 0 && listen(listener, 16) == 0
                    && getsockname(listener, address, &length) == 0
            }
        }
        guard bound else {
            close(listener)
            throw POSIXError(.EADDRNOTAVAIL)
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread { [self] in
            while !stopped.load(ordering: .acquiring) {
                var poller = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
                guard poll(&poller, 1, 50) > 0 else { continue }
                if acceptDelay > .zero {
                    let (seconds, attoseconds) = acceptDelay.components
                    Thread.sleep(forTimeInterval: Double(seconds) + Double(attoseconds) / 1e18)
                }
                let fd = accept(listener, nil, nil)
                guard fd >= 0 else { continue }
                var limit = timeval(tv_sec: timeout, tv_usec: 0)
                setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
                setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
                record("accepted")
                Thread {
                    script(Connection(fd: fd), self)
                    close(fd)
                }.start()
            }
            close(listener)
        }.start()
    }

    /// The URL of `path` on this server.
    func url(_ path: String = "/") -> URL { URL(string: "http://127.0.0.1:\(port)\(path)")! }

    /// Notes that something happened, for the test to wait for.
    func record(_ event: String) { events.withLock { $0.append(event) } }

    /// Everything recorded so far, in order.
    var recorded: [String] { events.withLock { $0 } }

    /// Waits up to `timeout` for `event` to have been recorded `count` times.
    func wait(for event: String, count: Int = 1, timeout: Duration = .seconds(20)) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while recorded.filter({ $0 == event }).count < count {
            guard ContinuousClock.now < deadline else { return false }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return true
    }

    /// Stops accepting connections; running scripts end at their next socket timeout at the latest.
    func stop() { stopped.store(true, ordering: .releasing) }
}
