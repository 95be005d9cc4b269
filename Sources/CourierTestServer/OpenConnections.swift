import NIOCore
import Synchronization

/// The open connections of a loopback server (the test server, the forward proxy), so that
/// shutting down closes them all; a connection accepted after shutdown began is closed at once.
final class OpenConnections: Sendable {
    private struct Contents {
        var channels: [ObjectIdentifier: any Channel] = [:]
        var accepted = 0
        var isShutDown = false
    }

    private let contents = Mutex(Contents())

    /// How many connections were accepted so far, closed ones included.
    var acceptedCount: Int { contents.withLock { $0.accepted } }

    /// How many connections are open now.
    var openCount: Int { contents.withLock { $0.channels.count } }

    /// Tracks a new connection until it closes.
    func opened(_ channel: any Channel) {
        let id = ObjectIdentifier(channel)
        let accepted = contents.withLock { contents in
            guard !contents.isShutDown else { return false }
            contents.accepted += 1
            contents.channels[id] = channel
            return true
        }
        guard accepted else {
            channel.close(promise: nil)
            return
        }
        channel.closeFuture.whenComplete { [self] _ in
            _ = contents.withLock { $0.channels.removeValue(forKey: id) }
        }
    }

    /// Marks the server as shut down and returns the connections still open, or `nil` when it
    /// was already shut down.
    func beginShutdown() -> [any Channel]? {
        contents.withLock { contents in
            guard !contents.isShutDown else { return nil }
            contents.isShutDown = true
            return Array(contents.channels.values)
        }
    }
}
