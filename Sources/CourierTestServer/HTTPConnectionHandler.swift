import Foundation
import NIOCore
import NIOHTTP1

/// Reads each request on one HTTP/1.1 connection, asks the router, and writes the answer.
///
/// Every method runs on the connection's event loop. `HTTPServerPipelineHandler`, placed ahead
/// of this handler, holds pipelined requests back until the previous response has ended, so at
/// most one request per connection is being answered at a time. The route is chosen from the
/// request head, before the body, so it can decide how the body is taken in (kept, counted, or
/// cut off by a fault). Raw bytes and fault effects go through `socket`, below the HTTP codec.
final class HTTPConnectionHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    /// The largest request body collected; a larger one is answered with 413 and the connection closed.
    static let maximumBodySize = 64 << 20

    /// A request whose body is still arriving.
    private struct Incoming {
        var head: HTTPRequestHead
        var match: Router.Match
        var sink: BodySink
        /// A planned fault for a phase after the body: `afterRequest` or a response phase.
        var fault: ConnectionFault?

        var request: TestServerRequest {
            switch match {
            case .route(_, let request): request
            case .refused: TestServerRequest(head)
            }
        }
    }

    /// Where the body bytes of the request go.
    private enum BodySink {
        case collect(ByteBuffer, tooLarge: Bool)
        case digest(BodyDigest)
        /// Kept (up to the cut) for the request log, until `threshold` bytes arrived.
        case fault(ConnectionFault, threshold: Int, received: ByteBuffer)
    }

    let router: Router
    let state: TestServerState
    let socket: SocketControlHandler
    /// A fault from the server's plan, for the first request of this connection.
    private var plannedFault: ConnectionFault?
    private var incoming: Incoming?
    /// The body being streamed, if any; see `HTTPConnectionHandler+Responding.swift`.
    var streaming: Streaming?
    var isActive = true

    init(router: Router, state: TestServerState, socket: SocketControlHandler, plannedFault: ConnectionFault?) {
        self.router = router
        self.state = state
        self.socket = socket
        self.plannedFault = plannedFault
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !socket.isTakenOver else { return }
        switch unwrapInboundIn(data) {
        case .head(let head): begin(head, context: context)
        case .body(let chunk): receive(chunk)
        case .end: end(context: context)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        isActive = false
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        isActive = false
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    private func begin(_ head: HTTPRequestHead, context: ChannelHandlerContext) {
        var received = TestServerRequest(head)
        if let address = context.channel.remoteAddress?.ipAddress { received.origin = address }
        let match = router.match(received)
        var fault = plannedFault
        plannedFault = nil
        var sink = BodySink.collect(ByteBuffer(), tooLarge: false)
        if let planned = fault, planned.phase == .midRequestBody {
            sink = .fault(planned, threshold: planned.afterBytes ?? 1, received: ByteBuffer())
            fault = nil
        } else if case .route(let route, let request) = match {
            switch route.bodyHandling(for: request) {
            case .collect: break
            case .digest(let checksum): sink = .digest(BodyDigest(fnv1a64: checksum ? FNV1a64.initial : nil))
            case .fault(let requested):
                sink = .fault(requested, threshold: requested.afterBytes ?? 1, received: ByteBuffer())
            }
        }
        incoming = Incoming(head: head, match: match, sink: sink, fault: fault)
        if head.headers["expect"].contains(where: { $0.lowercased() == "100-continue" }) {
            let interim = HTTPResponseHead(version: head.version, status: .continue)
            context.writeAndFlush(wrapOutboundOut(.head(interim)), promise: nil)
        }
        if case .fault(let fault, threshold: 0, received: _) = sink { cutRequest(with: fault) }
    }

    private func receive(_ chunk: ByteBuffer) {
        guard var current = incoming else { return }
        incoming = nil  // keeps the body buffer uniquely referenced while it grows
        var chunk = chunk
        switch current.sink {
        case .collect(var body, let tooLarge):
            let overflows = tooLarge || body.readableBytes + chunk.readableBytes > Self.maximumBodySize
            if !overflows { body.writeBuffer(&chunk) }
            current.sink = .collect(overflows ? ByteBuffer() : body, tooLarge: overflows)
        case .digest(var digest):
            chunk.withUnsafeReadableBytes { digest.add($0) }
            current.sink = .digest(digest)
        case .fault(let fault, let threshold, var received):
            let wanted = min(chunk.readableBytes, max(threshold - received.readableBytes, 0))
            received.writeImmutableBuffer(chunk.getSlice(at: chunk.readerIndex, length: wanted) ?? ByteBuffer())
            current.sink = .fault(fault, threshold: threshold, received: received)
            if received.readableBytes >= threshold {
                incoming = current
                cutRequest(with: fault)
                return
            }
        }
        incoming = current
    }

    private func end(context: ChannelHandlerContext) {
        guard let current = incoming else { return }
        var request = current.request
        switch current.sink {
        case .collect(_, tooLarge: true):
            incoming = nil
            var closing = current.head
            closing.headers.replaceOrAdd(name: "connection", value: "close")
            write(
                .text("the body is larger than \(Self.maximumBodySize) bytes\n", status: 413), for: closing,
                context: context)
            return
        case .collect(let body, tooLarge: false):
            request.body = Data(body.readableBytesView)
        case .digest(let digest):
            request.bodyDigest = digest
        case .fault(let fault, _, _):
            cutRequest(with: fault)  // the body ended before the threshold: cut at its end
            return
        }
        incoming = nil
        state.record(request)
        if let fault = current.fault, fault.phase == .afterRequest {
            socket.perform(fault.effect)
            return
        }
        respond(to: request, match: current.match, head: current.head, plannedFault: current.fault, context: context)
    }

    /// Records the request received so far and applies a `midRequestBody` fault.
    private func cutRequest(with fault: ConnectionFault) {
        guard let current = incoming else { return }
        incoming = nil
        var request = current.request
        if case .fault(_, _, let received) = current.sink { request.body = Data(received.readableBytesView) }
        state.record(request)
        socket.perform(fault.effect)
    }

    private func respond(
        to request: TestServerRequest, match: Router.Match, head: HTTPRequestHead,
        plannedFault: ConnectionFault?, context: ChannelHandlerContext
    ) {
        let promise = context.eventLoop.makePromise(of: TestServerResponse.self)
        switch match {
        case .refused(let response): promise.succeed(response)
        case .route(let route, _): promise.completeWithTask { await Router.respond(with: route, to: request) }
        }
        promise.futureResult.assumeIsolated().whenSuccess { response in
            var response = response
            if let plannedFault { response.fault = plannedFault }
            guard let delay = response.delay, delay > .zero else {
                self.write(response, for: head, context: context)
                return
            }
            context.eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(delay)) {
                self.write(response, for: head, context: context)
            }
        }
    }
}

extension TestServerRequest {
    /// The request `head` describes, with no body yet.
    init(_ head: HTTPRequestHead) {
        self.init(
            method: head.method.rawValue, target: head.uri,
            headers: head.headers.map { ($0.name, $0.value) }, body: Data())
    }
}
