import Courier
import CourierAsyncHTTPClient
import CourierCurl

/// What a `courier_client` handle names: a Swift `Client` whose interceptor list C can change,
/// and the threads its asynchronous sends run on.
final class ClientBox: HandleObject {
    static let handleKind = HandleKind.client

    private let client: Locked<Client>
    /// Runs asynchronous sends and their callbacks.
    let pool: CallbackPool
    /// The transport this box created and must shut down, if any.
    private let ownedTransport: AsyncHTTPClientTransport?

    init(client: Client, pool: CallbackPool, ownedTransport: AsyncHTTPClientTransport?) {
        self.client = Locked(client)
        self.pool = pool
        self.ownedTransport = ownedTransport
    }

    /// The client as it is now; a send keeps the chain it started with.
    var snapshot: Client { client.withLock { $0 } }

    /// The total timeout a request without its own gets.
    var timeout: Duration? { client.withLock { $0.configuration.timeout } }

    func append(_ interceptors: [any Interceptor]) {
        client.withLock { $0.interceptors += interceptors }
    }

    /// Removes the interceptors `shouldRemove` selects; returns how many it removed.
    @discardableResult
    func removeInterceptors(where shouldRemove: (any Interceptor) -> Bool) -> Int {
        client.withLock { client in
            let before = client.interceptors.count
            client.interceptors.removeAll(where: shouldRemove)
            return before - client.interceptors.count
        }
    }

    /// Stops the pool once sends under way are done, and shuts down an owned transport.
    func close() {
        pool.stop()
        if let ownedTransport {
            Task { try? await ownedTransport.shutdown() }
        }
    }
}
