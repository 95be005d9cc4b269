import Foundation
import NIOCore
import NIOHTTP1

/// Collects each request on one HTTP/1.1 connection, asks the router, and writes the answer.
///
/// Every method runs on the connection's event loop. `HTTPServerPipelineHandler`, placed ahead
/// of this handler, holds pipelined requests back until the previous response has ended, so at
/// most one request per connection is being answered at a time.
final class HTTPConnectionHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    /// The largest request body collected; a larger one is answered with 413 and the connection closed.
    static let maximumBodySize = 64 << 20

    private let router: Router
    private let state: TestServerState
    private var head: HTTPRequestHead?
    private var body = ByteBuffer()
    private var bodyTooLarge = false
    private var isActive = true

    init(router: Router, state: TestServerState) {
        self.router = router
        self.state = state
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            body.clear()
            bodyTooLarge = false
            if head.headers["expect"].contains(where: { $0.lowercased() == "100-continue" }) {
                let interim = HTTPResponseHead(version: head.version, status: .continue)
                context.writeAndFlush(wrapOutboundOut(.head(interim)), promise: nil)
            }
        case .body(var chunk):
            if body.readableBytes + chunk.readableBytes > Self.maximumBodySize {
                bodyTooLarge = true
            } else if !bodyTooLarge {
                body.writeBuffer(&chunk)
            }
        case .end:
            guard let head else { return }
            self.head = nil
            if bodyTooLarge {
                var closing = head
                closing.headers.replaceOrAdd(name: "connection", value: "close")
                write(.text("the body is larger than \(Self.maximumBodySize) bytes\n", status: 413), for: closing, context: context)
            } else {
                respond(to: head, context: context)
            }
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

    private func respond(to head: HTTPRequestHead, context: ChannelHandlerContext) {
        let request = TestServerRequest(
            method: head.method.rawValue,
            target: head.uri,
            headers: head.headers.map { ($0.name, $0.value) },
            body: Data(body.readableBytesView))
        state.record(request)
        let router = self.router
        let promise = context.eventLoop.makePromise(of: TestServerResponse.self)
        promise.completeWithTask { await router.response(for: request) }
        promise.futureResult.assumeIsolated().whenSuccess { response in
            guard self.isActive else { return }
            self.write(response, for: head, context: context)
        }
    }

    /// Writes `response` with `Content-Length` framing; the body is left out for `HEAD`,
    /// and the connection is closed afterwards when the request did not ask to keep it alive.
    private func write(_ response: TestServerResponse, for head: HTTPRequestHead, context: ChannelHandlerContext) {
        var headers = HTTPHeaders(response.headers)
        if response.status != 204, response.status != 304 {
            headers.replaceOrAdd(name: "Content-Length", value: String(response.body.count))
        }
        let keepAlive = head.isKeepAlive
        if !keepAlive { headers.replaceOrAdd(name: "Connection", value: "close") }
        let status = HTTPResponseStatus(statusCode: response.status)
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: status, headers: headers))),
                      promise: nil)
        if head.method != .HEAD, !response.body.isEmpty {
            context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: response.body)))), promise: nil)
        }
        let written = context.writeAndFlush(wrapOutboundOut(.end(nil)))
        if !keepAlive {
            written.assumeIsolated().whenComplete { _ in context.close(promise: nil) }
        }
    }
}
