package import CCourier
package import Courier
package import Synchronization

#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif

/// A request body read from a C `courier_read_fn`, once.
///
/// The callback may block, so it is called on a Courier thread: inline when the upload is pulled
/// on one, otherwise on the shared callback pool. Reading it a second time (a retry, a 307) fails
/// with `bodyNotReplayable`; the core already refuses to replay a one-shot body, and this guards
/// a second send of the same request.
///
/// `@unchecked Sendable` for the `courier_read_fn` and its `user_data`: `started` lets exactly one
/// reader call them, one call at a time, and `destroy` runs once, after the last read.
package final class CallbackBodySource: @unchecked Sendable {
    private let read: courier_read_fn
    private let userData: UnsafeMutableRawPointer?
    private let destroy: courier_destroy_fn?
    package let length: Int64?
    private let started = Atomic(false)

    package static let chunkSize = 64 * 1024

    package init(
        read: courier_read_fn, userData: UnsafeMutableRawPointer?, destroy: courier_destroy_fn?, length: Int64?
    ) {
        self.read = read
        self.userData = userData
        self.destroy = destroy
        self.length = length
    }

    deinit {
        if let destroy { ThreadRole.inCallback { destroy(userData) } }
    }

    package func chunks() -> Chunks { Chunks(source: self) }

    /// Calls the callback once; `nil` at the end of the body.
    fileprivate func readChunk(after total: Int64) throws -> Data? {
        var buffer = Data(count: Self.chunkSize)
        let count = buffer.withUnsafeMutableBytes { bytes in
            ThreadRole.inCallback { read(userData, bytes.baseAddress, bytes.count) }
        }
        guard count >= 0, count <= Int64(Self.chunkSize) else {
            throw CourierError(
                .encodingFailed,
                count < 0
                    ? "the body's read callback failed (returned \(count))"
                    : "the body's read callback returned \(count), more than the buffer holds",
                source: "courier_request_set_body_callback")
        }
        if let length {
            if count == 0, total != length {
                throw CourierError(
                    .encodingFailed, "the body's read callback ended after \(total) of \(length) bytes",
                    source: "courier_request_set_body_callback")
            }
            if total + count > length {
                throw CourierError(
                    .encodingFailed, "the body's read callback gave more than the \(length) bytes declared",
                    source: "courier_request_set_body_callback")
            }
        }
        guard count > 0 else { return nil }
        buffer.count = Int(count)
        return buffer
    }

    package struct Chunks: AsyncSequence, Sendable {
        package typealias Element = Data
        package let source: CallbackBodySource

        package func makeAsyncIterator() -> Iterator {
            Iterator(source: source, isFirst: !source.started.exchange(true, ordering: .relaxed))
        }
    }

    package struct Iterator: AsyncIteratorProtocol {
        package let source: CallbackBodySource
        package let isFirst: Bool
        package var total: Int64 = 0
        package var finished = false

        package mutating func next() async throws -> Data? {
            guard isFirst else {
                throw CourierError(
                    .bodyNotReplayable, "the body comes from a read callback and was already sent",
                    source: "courier_request_set_body_callback")
            }
            guard !finished else { return nil }
            let source = self.source
            let total = self.total
            let chunk: Data?
            if ThreadRole.drainingExecutor != nil {
                chunk = try source.readChunk(after: total)
            } else {
                chunk = try await CallbackPool.shared.run { Result { try source.readChunk(after: total) } }.get()
            }
            guard let chunk else {
                finished = true
                return nil
            }
            self.total += Int64(chunk.count)
            return chunk
        }
    }
}
