import Foundation
import NIOCore
import NIOPosix

/// The start of every proxy client connection: reads the request head from raw bytes, records it,
/// checks credentials and target, connects to the target, then hands the connection to a pair of
/// `GlueHandler`s and leaves the pipeline.
///
/// The head is parsed here rather than by NIOHTTP1's decoder so that whatever follows it (the start
/// of a request body, or the first bytes of a tunnel) stays raw bytes that can be relayed as they
/// are. While the target connection is being made, reads are held back and bytes that came in the
/// same reads as the head are kept, to be written right after the head. Refusals (400, 403, 407,
/// 431, 502) are written, the output closed, and the rest of the input read and dropped until the
/// client closes, so the client sees the whole answer rather than a reset. All methods run on the
/// connection's event loop, which the target connection shares.
final class ProxyConnectionHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private enum Phase {
        /// The head has not ended yet; `searched` bytes of `buffer` are known not to start `\r\n\r\n`.
        case readingHead(buffer: ByteBuffer, searched: Int)
        /// Connecting to the target; `pending` holds what the client sent after the head so far.
        case connecting(pending: ByteBuffer)
        /// A refusal was written; input is dropped until the client closes.
        case refusing
        /// Handed over to the glue, or closed.
        case done
    }

    private let state: ProxyState
    private let credentials: ProxyCredentials?
    private var phase = Phase.readingHead(buffer: ByteBuffer(), searched: 0)
    /// A read the channel asked for while connecting, issued once the relay is in place.
    private var readIsHeld = false

    init(state: ProxyState, credentials: ProxyCredentials?) {
        self.state = state
        self.credentials = credentials
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = unwrapInboundIn(data)
        switch phase {
        case .readingHead(var buffer, let searched):
            phase = .done
            buffer.writeBuffer(&bytes)
            readHead(buffer, searched: searched, context: context)
        case .connecting(var pending):
            phase = .done
            pending.writeBuffer(&bytes)
            phase = .connecting(pending: pending)
        case .refusing, .done:
            break
        }
    }

    func read(context: ChannelHandlerContext) {
        if case .connecting = phase {
            readIsHeld = true
        } else {
            context.read()
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        phase = .done
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        phase = .done
        context.close(promise: nil)
    }

    // MARK: The head

    private func readHead(_ buffer: ByteBuffer, searched: Int, context: ChannelHandlerContext) {
        var buffer = buffer
        let terminator = ProxyRequestHead.terminator
        let end: Int? = buffer.withUnsafeReadableBytes { bytes in
            var index = searched
            while index + terminator.count <= bytes.count {
                if bytes[index] == terminator[0], bytes[index + 1] == terminator[1],
                    bytes[index + 2] == terminator[2], bytes[index + 3] == terminator[3]
                {
                    return index
                }
                index += 1
            }
            return nil
        }
        guard let end else {
            if buffer.readableBytes > ProxyRequestHead.maximumSize {
                refuse(431, "Request Header Fields Too Large", context: context)
            } else {
                phase = .readingHead(buffer: buffer, searched: max(0, buffer.readableBytes - terminator.count + 1))
            }
            return
        }
        guard end + terminator.count <= ProxyRequestHead.maximumSize else {
            refuse(431, "Request Header Fields Too Large", context: context)
            return
        }
        let headBytes = buffer.readSlice(length: end)!
        buffer.moveReaderIndex(forwardBy: terminator.count)
        guard let head = ProxyRequestHead(headBytes.readableBytesView) else {
            refuse(400, "Bad Request", message: "the request line is not `method target HTTP/1.x`", context: context)
            return
        }
        handle(head, leftover: buffer, context: context)
    }

    private func handle(_ head: ProxyRequestHead, leftover: ByteBuffer, context: ChannelHandlerContext) {
        let authorization = head.value(of: "Proxy-Authorization")
        let isAuthorized = credentials?.accepts(authorization) ?? true
        state.record(
            ForwardedRequest(
                method: head.method, target: head.target,
                proxyAuthorization: authorization, wasAuthorized: isAuthorized))
        guard isAuthorized else {
            refuse(
                407, "Proxy Authentication Required",
                extraHeaders: ["Proxy-Authenticate: Basic realm=\"\(ProxyCredentials.realm)\""], context: context)
            return
        }
        let target = head.method == "CONNECT" ? ProxyTarget(connect: head.target) : ProxyTarget(absolute: head.target)
        guard let target else {
            let expected = head.method == "CONNECT" ? "host:port" : "an absolute http:// URL"
            refuse(400, "Bad Request", message: "the target of \(head.method) must be \(expected)", context: context)
            return
        }
        guard target.isLoopback else {
            refuse(
                403, "Forbidden",
                message: "\(target.host) is not a loopback host; this proxy only connects to loopback",
                context: context)
            return
        }
        phase = .connecting(pending: leftover)
        connect(to: target, context: context).hop(to: context.eventLoop).assumeIsolated().whenComplete { result in
            self.connected(result, head: head, target: target, context: context)
        }
    }

    // MARK: The target

    private func connect(to target: ProxyTarget, context: ChannelHandlerContext) -> EventLoopFuture<any Channel> {
        let state = self.state
        let bootstrap = ClientBootstrap(group: context.eventLoop)
            .connectTimeout(.seconds(10))
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(GlueHandler())
                    state.opened(channel)
                }
            }
        if let address = target.socketAddress {
            return bootstrap.connect(to: address)
        }
        return bootstrap.connect(host: target.host, port: target.port)
    }

    private func connected(
        _ result: Result<any Channel, any Error>, head: ProxyRequestHead, target: ProxyTarget,
        context: ChannelHandlerContext
    ) {
        guard case .connecting(let pending) = phase else {
            // The client went away while the connection was being made.
            if case .success(let origin) = result { origin.close(promise: nil) }
            return
        }
        let origin: any Channel
        switch result {
        case .success(let channel):
            origin = channel
        case .failure(let error):
            refuse(502, "Bad Gateway", message: "could not connect to \(target.authority): \(error)", context: context)
            return
        }
        let clientGlue = GlueHandler()
        let originGlue: GlueHandler
        do {
            originGlue = try origin.pipeline.syncOperations.handler(type: GlueHandler.self)
            try context.pipeline.syncOperations.addHandler(clientGlue, position: .after(self))
        } catch {
            origin.close(promise: nil)
            phase = .done
            context.close(promise: nil)
            return
        }
        if let originForm = target.originForm {
            origin.write(head.forwarded(originForm: originForm, authority: target.authority), promise: nil)
        } else {
            context.writeAndFlush(
                wrapOutboundOut(ByteBuffer(string: "HTTP/1.1 200 Connection Established\r\n\r\n")),
                promise: nil)
        }
        if pending.readableBytes > 0 { origin.write(pending, promise: nil) }
        origin.flush()
        phase = .done
        GlueHandler.link(clientGlue, originGlue)
        let channel = context.channel
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
        if readIsHeld { channel.read() }
    }

    // MARK: Refusals

    /// Answers `status` with a short text body and `Connection: close`, closes the output once it
    /// is written, and drops whatever the client still sends.
    private func refuse(
        _ status: Int, _ reason: String, message: String? = nil, extraHeaders: [String] = [],
        context: ChannelHandlerContext
    ) {
        phase = .refusing
        let body = (message ?? reason) + "\n"
        var response = ByteBuffer()
        response.writeString("HTTP/1.1 \(status) \(reason)\r\n")
        for header in [
            "Content-Type: text/plain; charset=utf-8", "Content-Length: \(body.utf8.count)",
            "Connection: close",
        ] + extraHeaders {
            response.writeString(header + "\r\n")
        }
        response.writeString("\r\n" + body)
        context.writeAndFlush(wrapOutboundOut(response), promise: nil)
        context.close(mode: .output, promise: nil)
        if readIsHeld {
            readIsHeld = false
            context.read()
        }
    }
}

/// The user and password a `ForwardProxy` requires, checked against `Proxy-Authorization`.
struct ProxyCredentials: Sendable {
    /// The realm of the `Proxy-Authenticate` challenge.
    static let realm = "courier-test-proxy"

    var user: String
    var password: String

    /// Whether `authorization` is `Basic base64(user:password)`; the scheme is matched case-insensitively.
    func accepts(_ authorization: String?) -> Bool {
        guard let authorization else { return false }
        let parts = authorization.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "basic" else { return false }
        return parts[1].trimmingASCIIWhitespace() == Data("\(user):\(password)".utf8).base64EncodedString()
    }
}
