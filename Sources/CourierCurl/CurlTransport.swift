public import Courier
import HTTPTypes
import Synchronization

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A `Transport` on libcurl: one I/O thread drives every transfer through a curl multi handle,
/// keeping connections alive and reusing them across requests.
///
/// ```swift
/// let transport = CurlTransport()
/// let response = try await transport.send(request, context: TransportContext())
/// for try await chunk in response.bodyStream! { … }
/// ```
///
/// Threads: `send` never blocks its caller; the work happens on a dedicated thread (not Swift's
/// cooperative pool) that starts with the first request and stops on `shutdown()`, or once the
/// transport is released and its last response body has ended. Progress callbacks run on that
/// thread and must return quickly. The one exception is a caller that blocks anyway and says so
/// (`CurlCallerDriving`, set by the C library's `courier_client_send`): its thread drives curl
/// itself, with a handle and connections of its own, and gets the body whole with the head.
///
/// What goes on the wire: exactly `request.wireHeaderFields`, plus `Host`, `Accept-Encoding` when
/// decompression is on and the request has none, `Transfer-Encoding: chunked` for a body of unknown
/// length on HTTP/1.1, and `User-Agent` only when configured. curl's own `Accept: */*` and
/// `Expect: 100-continue` are suppressed.
///
/// Decompression: when this transport asked for compression, it hands over the decoded body and
/// removes `Content-Encoding` and `Content-Length` (they describe the encoded bytes), as
/// AsyncHTTPClient does; when the request set its own `Accept-Encoding`, the body arrives as sent.
public final class CurlTransport: Transport {
    /// How this transport sets up curl.
    public let configuration: Configuration
    let loop: CurlLoop
    /// The proxy of each request, from `configuration.proxy` and the environment at creation.
    private let proxyRouter: ProxyRouter
    /// The curl handles that blocking callers drive on their own threads (`CurlCallerDriving`).
    private let drivenSessions: CurlDrivenSessions
    /// The process this transport was made in (`ForkGeneration`): another refuses every send.
    private let forkGeneration = ForkGeneration.current

    /// Creates a transport; its I/O thread starts with the first request.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        loop = CurlLoop(configuration: configuration)
        proxyRouter = ProxyRouter(configuration.proxy)
        drivenSessions = CurlDrivenSessions(configuration: configuration)
    }

    deinit {
        guard ForkGeneration.current == forkGeneration else {
            // In a process fork() made, the loop and the sessions hold the parent's connections
            // (freeing them would close those sockets, and a TLS close would reach the parent's
            // peer) and state its vanished threads may have left locked: keep them, untouched.
            ForkGeneration.setAside(loop)
            ForkGeneration.setAside(drivenSessions)
            return
        }
        loop.ownerReleased()
    }

    /// Sends `request` and returns once the response head has arrived, with the body still streaming.
    ///
    /// - Throws: `CourierError` with the request attached: `cannotConnect`, `timedOut`, `cancelled`,
    ///   `insecureConnection`, `invalidResponse`, `limitExceeded`, or the body's own error;
    ///   `usedAfterFork` at once in a process `fork()` made after this transport was.
    public nonisolated(nonsending) func send(_ request: Request, context: TransportContext) async throws -> Response {
        if let refusal = ForkGeneration.refusal(madeIn: forkGeneration, what: "this CurlTransport", request: request) {
            throw refusal
        }
        let transfer = try makeTransfer(for: request, context: context)
        if let driving = CurlCallerDriving.current, driving.isCurrentThread, canDrive(transfer),
            let session = drivenSessions.take()
        {
            defer { drivenSessions.giveBack(session) }
            return try session.perform(
                transfer, loop: loop, bodyLimit: driving.maxBodyBytes, shouldCancel: driving.shouldCancel)
        }
        let response: Response
        do {
            defer { transfer.acquireInSend() }
            response = try await withCancellationHandler {
                try await withUnsafeThrowingContinuation { continuation in
                    loop.submit(.start(transfer, continuation))
                }
            } onCancel: {
                transfer.markCancelled()
                loop.submit(.cancel(transfer.id))
            }
        }
        if Task.isCancelled {
            loop.submit(.abort(transfer.id))
            throw transfer.error(.cancelled, "the request was cancelled")
        }
        return response
    }

    /// Stops the I/O thread and closes every connection; transfers still running fail with `cancelled`.
    ///
    /// Later requests fail with `cancelled`. Calling it again does nothing.
    public func shutdown() async {
        // The parent's I/O thread is not in a process fork() made: there is nothing of ours to stop.
        guard ForkGeneration.current == forkGeneration else { return }
        drivenSessions.close()
        await loop.shutdown()
    }

    /// Whether the caller's thread can run `transfer` to its end alone: no body still to be
    /// produced by another task, no progress to report, and a transport not shut down.
    private func canDrive(_ transfer: CurlTransfer) -> Bool {
        guard transfer.upload?.isFullyQueued ?? true, !loop.hasStopped else { return false }
        return transfer.context.uploadProgress == nil && transfer.context.downloadProgress == nil
    }

    /// The TLS checks this transport's configuration turns off.
    public var disabledSecurityChecks: [String] { configuration.tls.disabledChecks }

    /// Whether some request may go through a proxy (one configured, or the environment's when it was created).
    package var mayUseProxy: Bool { proxyRouter.mayUseProxy }

    /// Connections opened so far; two requests over one kept-alive connection count one.
    var connectionsOpened: Int { loop.connectionsOpened.load(ordering: .relaxed) }

    private func makeTransfer(for request: Request, context: TransportContext) throws -> CurlTransfer {
        guard request.scheme == "http" || request.scheme == "https" else {
            throw CourierError(
                .invalidRequest, "CurlTransport sends only http and https URLs, not \(request.url.absoluteString)",
                source: "CurlTransport", request: request)
        }
        let proxy: ProxyServer?
        do {
            proxy = proxyRouter.mayUseProxy ? try proxyRouter.proxy(for: request.url) : nil
        } catch {
            var error = error
            error.request = request
            throw error
        }
        let id = loop.makeID()
        guard let body = request.body, request.method != .head else {
            return CurlTransfer(
                id: id, request: request, context: context, upload: nil, uploadLength: nil, proxy: proxy)
        }
        let length = request.wireHeaderFields[.contentLength].flatMap { Int64($0) } ?? body.contentLength
        guard length != 0 else {
            return CurlTransfer(
                id: id, request: request, context: context, upload: nil, uploadLength: nil, proxy: proxy)
        }
        let loop = self.loop
        let upload = UploadChannel(expectedLength: length, wakeReader: { loop.submit(.resumeUpload(id)) })
        if let segments = body.segments {
            var bytes: [Data] = []
            for case .bytes(let data) in segments { bytes.append(data) }
            if bytes.count == segments.count {
                upload.fill(with: bytes)
                return CurlTransfer(
                    id: id, request: request, context: context, upload: upload, uploadLength: length, proxy: proxy)
            }
        }
        do {
            upload.startPump(try body.chunks())
        } catch var error as CourierError {
            error.request = request
            throw error
        }
        return CurlTransfer(
            id: id, request: request, context: context, upload: upload, uploadLength: length, proxy: proxy)
    }
}
