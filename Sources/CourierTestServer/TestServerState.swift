import NIOCore
import Synchronization

/// What a running test server shares across its connections: the requests received so far,
/// the faults planned for the next connections, and the open connections, so shutting down can close them.
final class TestServerState: Sendable {
    private struct Contents {
        var requests: [TestServerRequest] = []
        var plannedFaults: [ConnectionFault] = []
    }

    private let contents = Mutex(Contents())
    private let connections = OpenConnections()

    /// Adds a request to the log; called from any connection's event loop.
    func record(_ request: TestServerRequest) {
        contents.withLock { $0.requests.append(request) }
    }

    /// The requests received so far, oldest first.
    var requests: [TestServerRequest] {
        contents.withLock { $0.requests }
    }

    /// Appends `faults` to the plan; each connection accepted from now on takes the next one.
    func plan(_ faults: [ConnectionFault]) {
        contents.withLock { $0.plannedFaults += faults }
    }

    /// Removes and returns the next planned fault, for a connection just accepted.
    func takePlannedFault() -> ConnectionFault? {
        contents.withLock { $0.plannedFaults.isEmpty ? nil : $0.plannedFaults.removeFirst() }
    }

    /// How many connections were accepted so far, closed ones included.
    var acceptedConnectionCount: Int { connections.acceptedCount }

    /// How many connections are open now.
    var openConnectionCount: Int { connections.openCount }

    /// Tracks a new connection until it closes; one accepted after shutdown is closed at once.
    func opened(_ channel: any Channel) { connections.opened(channel) }

    /// Marks the server as shut down and returns the connections still open, or `nil` when
    /// it was already shut down.
    func beginShutdown() -> [any Channel]? { connections.beginShutdown() }
}
