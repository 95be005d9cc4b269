import NIOCore

/// One end of a byte relay between two channels on the same event loop: what this handler's
/// channel reads, its partner's channel writes.
///
/// A channel reads only while its partner's channel can take more, so a slow reader on one side
/// slows the other side's sender instead of filling the proxy's memory. When one channel closes,
/// the other is closed once the bytes already relayed to it are written, so a response the origin
/// sent just before closing still reaches the client whole. Every method runs on the shared event loop.
final class GlueHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private var partner: GlueHandler?
    private var context: ChannelHandlerContext?
    /// A read was asked for while the partner could not take more (or was not linked yet); it is
    /// issued once the partner can.
    private var readIsHeld = false
    private var isClosing = false

    init() {}

    /// Links two handlers, each in its own channel, so that each relays to the other; reads held
    /// back until now start.
    static func link(_ first: GlueHandler, _ second: GlueHandler) {
        first.partner = second
        second.partner = first
        first.partnerBecameWritable()
        second.partnerBecameWritable()
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
        partner = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        partner?.write(unwrapInboundIn(data))
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        partner?.flush()
        context.fireChannelReadComplete()
    }

    func channelInactive(context: ChannelHandlerContext) {
        let partner = self.partner
        self.partner = nil
        partner?.partnerClosed()
        context.fireChannelInactive()
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable { partner?.partnerBecameWritable() }
        context.fireChannelWritabilityChanged()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // A reset or failed write ends this side; `channelInactive` then closes the other.
        context.close(promise: nil)
    }

    func read(context: ChannelHandlerContext) {
        if partner?.isWritable == true {
            context.read()
        } else {
            readIsHeld = true
        }
    }

    // MARK: Called by the partner

    private var isWritable: Bool {
        context?.channel.isWritable ?? false
    }

    private func write(_ bytes: ByteBuffer) {
        guard let context, !isClosing else { return }
        context.write(wrapOutboundOut(bytes), promise: nil)
    }

    private func flush() {
        context?.flush()
    }

    private func partnerBecameWritable() {
        guard readIsHeld, partner?.isWritable == true, let context else { return }
        readIsHeld = false
        context.read()
    }

    /// The partner's channel closed: shut this channel's output once its pending writes are out,
    /// then close it altogether.
    private func partnerClosed() {
        guard let context, !isClosing else { return }
        isClosing = true
        let channel = context.channel
        let outputClosed = context.eventLoop.makePromise(of: Void.self)
        context.flush()
        context.close(mode: .output, promise: outputClosed)
        outputClosed.futureResult.whenComplete { _ in channel.close(promise: nil) }
    }
}
