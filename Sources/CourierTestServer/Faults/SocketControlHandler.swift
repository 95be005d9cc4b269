import NIOCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The first handler of every connection, next to the socket: it writes raw bytes that bypass
/// the HTTP encoder and carries out `ConnectionFault` effects.
///
/// Everything above it speaks `HTTPServerRequestPart`/`HTTPServerResponsePart`; writing from this
/// handler's context skips them, so a test can put any bytes on the wire. Once an effect starts,
/// the connection is taken over: inbound bytes are dropped here and never reach the HTTP decoder,
/// so no handler above answers again. All methods run on the connection's event loop.
final class SocketControlHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = IOData
    typealias OutboundOut = IOData

    private enum Mode {
        case passThrough
        /// Input is read and dropped, so the client's FIN is seen and the channel closes.
        case draining
        /// Input is left in the kernel; nothing more happens until the server shuts down.
        case stalled
    }

    private var mode = Mode.passThrough
    private let faultAtConnect: ConnectionFault.Effect?
    private var context: ChannelHandlerContext?

    /// Creates the handler; `faultAtConnect` is applied as soon as the connection is active.
    init(faultAtConnect: ConnectionFault.Effect? = nil) {
        self.faultAtConnect = faultAtConnect
    }

    /// Whether an effect has taken the connection over.
    var isTakenOver: Bool {
        if case .passThrough = mode { return false }
        return true
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
    }

    func channelActive(context: ChannelHandlerContext) {
        context.fireChannelActive()
        if let faultAtConnect { perform(faultAtConnect) }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .passThrough = mode else { return }
        context.fireChannelRead(data)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        switch mode {
        case .passThrough: context.fireChannelReadComplete()
        // The HTTP pipeline handler above may be holding reads back; drain regardless.
        case .draining: context.read()
        case .stalled: break
        }
    }

    func read(context: ChannelHandlerContext) {
        if case .stalled = mode { return }
        context.read()
    }

    /// Writes `bytes` straight to the socket and flushes; the future completes once they are written.
    @discardableResult
    func writeRaw(_ bytes: ByteBuffer) -> EventLoopFuture<Void>? {
        guard let context else { return nil }
        return context.writeAndFlush(wrapOutboundOut(.byteBuffer(bytes)))
    }

    /// Writes `bytes` raw, then performs `effect` once they are on the wire (or failed to get there).
    func writeRaw(_ bytes: ByteBuffer, then effect: ConnectionFault.Effect) {
        guard bytes.readableBytes > 0, let written = writeRaw(bytes) else {
            perform(effect)
            return
        }
        enterDraining()
        written.assumeIsolated().whenComplete { _ in self.perform(effect) }
    }

    /// Takes the connection over and carries out `effect`.
    func perform(_ effect: ConnectionFault.Effect) {
        guard let context else { return }
        switch effect {
        case .close:
            enterDraining()
            context.close(mode: .output, promise: nil)
        case .reset:
            enterDraining()
            if let provider = context.channel as? any SocketOptionProvider {
                provider.setSoLinger(linger(l_onoff: 1, l_linger: 0)).assumeIsolated().whenComplete { _ in
                    context.close(promise: nil)
                }
            } else {
                context.close(promise: nil)
            }
        case .stall:
            mode = .stalled
            try? context.channel.syncOptions?.setOption(ChannelOptions.autoRead, value: false)
        case .malformed:
            writeRaw(ByteBuffer(bytes: ConnectionFault.garbage), then: .close)
        }
    }

    private func enterDraining() {
        guard case .passThrough = mode else { return }
        mode = .draining
        context?.read()
    }
}
