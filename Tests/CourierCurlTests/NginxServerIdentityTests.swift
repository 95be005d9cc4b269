import Foundation
import TestProcesses
import Testing

/// `NginxServer` waits until nginx itself listens on its port, not merely until something does:
/// another test's server once took the port between its choice and nginx's bind, and answered
/// nginx's requests (fresh-clone run 41).
@Suite("nginx's port is nginx's")
struct NginxServerIdentityTests {
    @Test func theWholeTCPTableIsReadNotItsFirstPage() throws {
        // Hundreds of sockets make /proc/net/tcp longer than the one page a single read returns.
        var sockets: [Int32] = []
        defer { sockets.forEach { close($0) } }
        for _ in 0..<300 {
            let (fd, _) = try unusedPort()
            #expect(listen(fd, 1) == 0)
            sockets.append(fd)
        }
        let (last, port) = try unusedPort()
        defer { close(last) }
        #expect(listen(last, 1) == 0)
        let table = try #require(NginxServer.readWhole("/proc/net/tcp"))
        #expect(table.split(separator: "\n").count > 300)
        #expect(NginxServer.process(getpid(), holdsListeningSocketOn: port))
    }

    @Test func aListeningSocketIsFoundInTheProcessThatHoldsItOnly() throws {
        let (fd, port) = try unusedPort()
        defer { close(fd) }
        #expect(!NginxServer.process(getpid(), holdsListeningSocketOn: port), "bound but not listening yet")
        #expect(listen(fd, 1) == 0)
        #expect(NginxServer.process(getpid(), holdsListeningSocketOn: port))
        #expect(!NginxServer.process(1, holdsListeningSocketOn: port))
    }
}
