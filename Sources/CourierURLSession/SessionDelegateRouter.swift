import Courier
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The delegate of a session `URLSessionTransport` made: passes each task's callbacks to the
/// exchange the task belongs to.
///
/// FoundationNetworking calls only a session's delegate for tasks without a completion handler
/// (a task's own `delegate` is ignored there), so every exchange is found through this table, by
/// task identifier. A URLSession keeps its delegate until it is invalidated, and the router holds
/// no reference back to the transport.
final class SessionDelegateRouter: NSObject, URLSessionDataDelegate, Sendable {
    private let exchanges = Protected<[Int: URLSessionExchange]>([:])

    /// Routes `task`'s callbacks to `exchange` until the task completes.
    func register(_ exchange: URLSessionExchange, for task: URLSessionTask) {
        exchanges.withLock { $0[task.taskIdentifier] = exchange }
    }

    /// Stops routing `task`'s callbacks (it completed, or never started).
    func forget(_ task: URLSessionTask) {
        _ = exchanges.withLock { $0.removeValue(forKey: task.taskIdentifier) }
    }

    /// The exchanges in flight: the ones a shut-down transport fails.
    var inFlight: [URLSessionExchange] { exchanges.withLock { Array($0.values) } }

    private func exchange(for task: URLSessionTask) -> URLSessionExchange? {
        exchanges.withLock { $0[task.taskIdentifier] }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        guard let exchange = exchange(for: dataTask) else { return completionHandler(.cancel) }
        exchange.urlSession(session, dataTask: dataTask, didReceive: response, completionHandler: completionHandler)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        exchange(for: dataTask)?.urlSession(session, dataTask: dataTask, didReceive: data)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let exchange = exchanges.withLock { $0.removeValue(forKey: task.taskIdentifier) }
        exchange?.urlSession(session, task: task, didCompleteWithError: error)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didFinishCollecting metrics: URLSessionTaskMetrics) {
        exchange(for: task)?.urlSession(session, task: task, didFinishCollecting: metrics)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        // Never followed by URLSession, even for a task no longer known.
        completionHandler(nil)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64, totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64
    ) {
        exchange(for: task)?.urlSession(
            session, task: task, didSendBodyData: bytesSent, totalBytesSent: totalBytesSent,
            totalBytesExpectedToSend: totalBytesExpectedToSend)
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, willCacheResponse proposedResponse: CachedURLResponse,
        completionHandler: @escaping @Sendable (CachedURLResponse?) -> Void
    ) {
        completionHandler(nil)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        guard let exchange = exchange(for: task) else { return completionHandler(.cancelAuthenticationChallenge, nil) }
        exchange.urlSession(session, task: task, didReceive: challenge, completionHandler: completionHandler)
    }
}
