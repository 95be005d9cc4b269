import Courier
import CourierAsyncHTTPClient
import CourierCurl

/// What a `courier_client` handle names: a Swift `Client` whose interceptor list C can change,
/// and the threads its asynchronous sends run on.
final class ClientBox: HandleObject {
    static let handleKind = HandleKind.client

    /// The client, and its interceptors as they were added; the client's chain is the same list
    /// with consecutive inline C interceptors fused into runs.
    private struct State {
        var client: Client
        var added: [any Interceptor]

        mutating func rebuildChain() { client.interceptors = CInterceptorRun.fusing(added) }
    }

    private let state: Locked<State>
    /// Runs asynchronous sends and their callbacks.
    let pool: CallbackPool
    /// Shuts down the transport this box created, if it created one.
    private let shutdownOwnedTransport: (@Sendable () async -> Void)?

    init(client: Client, pool: CallbackPool, shutdownOwnedTransport: (@Sendable () async -> Void)?) {
        var state = State(client: client, added: client.interceptors)
        state.rebuildChain()
        self.state = Locked(state)
        self.pool = pool
        self.shutdownOwnedTransport = shutdownOwnedTransport
    }

    /// The client as it is now; a send keeps the chain it started with.
    var snapshot: Client { state.withLock { $0.client } }

    /// The total timeout a request without its own gets.
    var timeout: Duration? { state.withLock { $0.client.configuration.timeout } }

    func append(_ interceptors: [any Interceptor]) {
        state.withLock { state in
            state.added += interceptors
            state.rebuildChain()
        }
    }

    /// Removes the interceptors `shouldRemove` selects; returns how many it removed.
    @discardableResult
    func removeInterceptors(where shouldRemove: (any Interceptor) -> Bool) -> Int {
        state.withLock { state in
            let before = state.added.count
            state.added.removeAll(where: shouldRemove)
            state.rebuildChain()
            return before - state.added.count
        }
    }

    /// Refuses new sends; once the sends under way are done (each completing as it would have),
    /// the pool's threads exit and an owned transport is shut down.
    func close() {
        guard let shutdown = shutdownOwnedTransport else {
            pool.stop()
            return
        }
        pool.stop(whenFinished: { Task { await shutdown() } })
    }
}
