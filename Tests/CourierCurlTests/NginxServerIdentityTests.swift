import Foundation
import Testing
import TestProcesses

/// `NginxServer` waits until nginx itself listens on its port, not merely until something does:
/// another test's server once took the port between its choice and nginx's bind, and answered
/// nginx's requests (fresh-clone run 41).
@Suite("nginx's port is nginx's")
struct NginxServerIdentityTests {
    @Test func aListeningSocketIsFoundInTheProcessThatHoldsItOnly() throws {
        let (fd, port) = try unusedPort()
        defer { close(fd) }
        #expect(!NginxServer.process(getpid(), holdsListeningSocketOn: port), "bound but not listening yet")
        #expect(listen(fd, 1) == 0)
        #expect(NginxServer.process(getpid(), holdsListeningSocketOn: port))
        #expect(!NginxServer.process(1, holdsListeningSocketOn: port))
    }
}
