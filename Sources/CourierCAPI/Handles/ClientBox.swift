import Courier
import CourierCInterceptors
import CourierCurl

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a `courier_client` handle names: a Swift `Client` whose interceptor list C can change,
/// and the threads its asynchronous sends run on.
final class ClientBox: HandleObject {
    static let handleKind = HandleKind.client

    /// The client, and its interceptors as they were added; the client's chain is that list, with
    /// consecutive inline C interceptors fused into runs.
    private struct State {
        var client: Client
        var added: [any Interceptor]

        mutating func rebuildChain() { client.interceptors = CInterceptorRun.fusing(added) }
    }

    private let state: Locked<State>
    /// Runs asynchronous sends and their callbacks.
    let pool: CallbackPool
    /// The tasks asynchronous sends run on, on `pool`'s threads.
    let workers: AsyncSendWorkers
    /// Where the completions of asynchronous sends wait for the program's own thread, when it asked.
    let completionQueue: CompletionQueue?
    /// The Netscape cookie file the client's jar is loaded from and saved to, if any.
    private let cookieFile: String?
    /// Shuts down the transport this box created, if it created one.
    private let shutdownOwnedTransport: (@Sendable () async -> Void)?
    /// The process the client was made in; in another (made by fork) it refuses every call.
    let forkGeneration = ForkGeneration.current

    init(
        client: Client, pool: CallbackPool, completionQueue: CompletionQueue? = nil,
        cookieFile: String? = nil, shutdownOwnedTransport: (@Sendable () async -> Void)?
    ) {
        var state = State(client: client, added: client.interceptors)
        state.rebuildChain()
        self.state = Locked(state)
        self.pool = pool
        self.workers = AsyncSendWorkers(pool: pool)
        self.completionQueue = completionQueue
        self.cookieFile = cookieFile
        self.shutdownOwnedTransport = shutdownOwnedTransport
    }

    /// Writes the cookie jar to the cookie file.
    func saveCookies(in function: StaticString = #function) throws {
        guard let cookieFile, let jar = snapshot.configuration.cookieJar else {
            throw CAPIFailure.invalidArgument(
                "the client keeps no cookies: it was created without cookie_file", in: function)
        }
        do {
            try jar.save(to: cookieFile)
        } catch {
            throw CAPIFailure.invalidArgument(
                "cookie_file \(cookieFile) cannot be written: \(TerminalSafeText.escaping("\(error)"))", in: function)
        }
    }

    /// The client's cookie jar, or a failure naming how to make a client that keeps one.
    func cookieJar(in function: StaticString = #function) throws -> CookieJar {
        guard let jar = snapshot.configuration.cookieJar else {
            throw CAPIFailure.invalidArgument(
                "the client keeps no cookies: create it with keep_cookies = 1 or a cookie_file", in: function)
        }
        return jar
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

    /// Refuses new sends and runs the completions still queued on this thread (later ones run on
    /// the pool); once the sends under way are done (each completing as it would have), the
    /// cookies are saved, the pool's threads exit and an owned transport is shut down.
    func close() {
        workers.close()
        completionQueue?.close()
        let jar = cookieFile == nil ? nil : snapshot.configuration.cookieJar
        let cookieFile = cookieFile
        let shutdown = shutdownOwnedTransport
        guard jar != nil || shutdown != nil else {
            pool.stop()
            return
        }
        pool.stop(whenFinished: {
            if let jar, let cookieFile { try? jar.save(to: cookieFile) }
            if let shutdown { Task { await shutdown() } }
        })
    }
}
