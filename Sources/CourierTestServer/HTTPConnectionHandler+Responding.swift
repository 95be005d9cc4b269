import Foundation
import NIOCore
import NIOHTTP1

/// Writing responses: whole bodies, streamed bodies with backpressure, raw bytes, and response-phase faults.
extension HTTPConnectionHandler {
    /// A streamed body being written.
    struct Streaming {
        var stream: any BodyStream
        /// Body bytes written so far.
        var written = 0
        /// Where a `midResponseBody` fault cuts the body, and what it does then.
        var cut: (offset: Int, effect: ConnectionFault.Effect)?
        var keepAlive: Bool
        /// The latest write, so an effect waits for the bytes before it.
        var lastWrite: EventLoopFuture<Void>?
    }

    /// Parts written per event-loop turn before yielding to other connections.
    private static let partsPerTurn = 16
    /// The pause between turns: enough to end the event loop's tick, short enough not to matter.
    private static let yieldDelay = TimeAmount.microseconds(50)

    /// Writes `response` to the request `head`: raw, faulted or as HTTP. The connection is closed
    /// afterwards when the request did not ask to keep it alive.
    func write(_ response: TestServerResponse, for head: HTTPRequestHead, context: ChannelHandlerContext) {
        guard isActive, !socket.isTakenOver else { return }
        if let raw = response.raw {
            socket.writeRaw(ByteBuffer(bytes: raw.bytes), then: raw.effect)
            return
        }
        var cut: (offset: Int, effect: ConnectionFault.Effect)?
        let length = response.stream.map(\.length) ?? response.body.count
        if let fault = response.fault {
            switch fault.phase {
            case .atConnect, .afterRequest, .midRequestBody:
                socket.perform(fault.effect)
                return
            case .atResponseStart:
                var bytes = Self.serialize(responseHead(response, for: head))
                let prefix = bytes.readSlice(
                    length: min(fault.afterBytes ?? bytes.readableBytes / 2, bytes.readableBytes))!
                socket.writeRaw(prefix, then: fault.effect)
                return
            case .midResponseBody:
                cut = (fault.afterBytes ?? (length ?? 2) / 2, fault.effect)
            }
        }
        let responseHead = responseHead(response, for: head)
        context.write(wrapOutboundOut(.head(responseHead)), promise: nil)
        let hasBody = head.method != .HEAD && response.status >= 200 && response.status != 204 && response.status != 304
        if hasBody, let stream = response.stream?.stream {
            streaming = Streaming(stream: stream, cut: cut, keepAlive: head.isKeepAlive)
            pump(context: context)
            return
        }
        if hasBody, let cut {
            var body = ByteBuffer(bytes: response.body)
            let prefix = body.readSlice(length: min(cut.offset, body.readableBytes))!
            let written = context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(prefix))))
            written.assumeIsolated().whenComplete { _ in self.socket.perform(cut.effect) }
            return
        }
        if hasBody, !response.body.isEmpty {
            context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: response.body)))), promise: nil)
        }
        endResponse(keepAlive: head.isKeepAlive, context: context)
    }

    /// The head for `response`, with the framing headers the body needs.
    private func responseHead(_ response: TestServerResponse, for head: HTTPRequestHead) -> HTTPResponseHead {
        var headers = HTTPHeaders(response.headers)
        if response.status >= 200, response.status != 204, response.status != 304 {
            if let length = response.stream.map(\.length) ?? response.body.count {
                headers.replaceOrAdd(name: "Content-Length", value: String(length))
            } else {
                headers.replaceOrAdd(name: "Transfer-Encoding", value: "chunked")
            }
        }
        if !head.isKeepAlive { headers.replaceOrAdd(name: "Connection", value: "close") }
        return HTTPResponseHead(
            version: head.version, status: HTTPResponseStatus(statusCode: response.status), headers: headers)
    }

    /// `head` as HTTP/1.1 bytes, for faults that must stop partway through it.
    private static func serialize(_ head: HTTPResponseHead) -> ByteBuffer {
        var text =
            "HTTP/\(head.version.major).\(head.version.minor) \(head.status.code) \(head.status.reasonPhrase)\r\n"
        for (name, value) in head.headers { text += "\(name): \(value)\r\n" }
        return ByteBuffer(string: text + "\r\n")
    }

    /// Writes parts of the current stream until it ends, pauses, or the socket has no room;
    /// a full socket resumes the pump when the last write completes, so memory stays bounded.
    func pump(context: ChannelHandlerContext) {
        for _ in 0..<Self.partsPerTurn {
            guard isActive, !socket.isTakenOver, var current = streaming else {
                streaming = nil
                return
            }
            switch current.stream.next() {
            case .bytes(let data):
                var chunk = context.channel.allocator.buffer(capacity: data.count)
                data.withUnsafeBytes { _ = chunk.writeBytes($0) }
                if let cut = current.cut, current.written + chunk.readableBytes >= cut.offset {
                    streaming = nil
                    let prefix = chunk.readSlice(length: max(cut.offset - current.written, 0))!
                    let written = context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(prefix))))
                    written.assumeIsolated().whenComplete { _ in self.socket.perform(cut.effect) }
                    return
                }
                current.written += chunk.readableBytes
                let written = context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(chunk))))
                current.lastWrite = written
                streaming = current
                if !context.channel.isWritable {
                    // A failed write (the client reset) ends the stream. A write that completes at
                    // once completes inline: the next turn is queued, so the pump never recurses
                    // (it did, and overflowed the stack, when writes to a reset socket failed at once).
                    written.assumeIsolated().whenComplete { result in
                        guard case .success = result else {
                            self.streaming = nil
                            return
                        }
                        context.eventLoop.assumeIsolated().execute { self.pump(context: context) }
                    }
                    return
                }
            case .pause(let duration):
                streaming = current
                context.flush()  // the head, when the body starts with a pause
                context.eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(duration)) {
                    self.pump(context: context)
                }
                return
            case .end:
                streaming = nil
                endResponse(keepAlive: current.keepAlive, context: context)
                return
            case .fault(let effect):
                streaming = nil
                guard let lastWrite = current.lastWrite else {
                    socket.perform(effect)
                    return
                }
                lastWrite.assumeIsolated().whenComplete { _ in self.socket.perform(effect) }
                return
            }
        }
        // A task due now would run in this same loop tick, and a fast reader keeps the socket
        // writable indefinitely; a deadline just ahead ends the tick, so other connections'
        // I/O on this loop gets its turn between batches.
        context.eventLoop.assumeIsolated().scheduleTask(in: Self.yieldDelay) { self.pump(context: context) }
    }

    /// Ends the response, and closes the connection once it is written unless it is kept alive.
    private func endResponse(keepAlive: Bool, context: ChannelHandlerContext) {
        let written = context.writeAndFlush(wrapOutboundOut(.end(nil)))
        if !keepAlive {
            written.assumeIsolated().whenComplete { _ in context.close(promise: nil) }
        }
    }
}
