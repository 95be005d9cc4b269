#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// The body of a request, and whether it can be sent more than once.
///
/// Bytes and files can always be replayed; a stream can only when it was given as a factory
/// (`restartable`). Retry, redirect and auth refresh read `isReplayable` rather than silently
/// resending an empty body.
///
/// In a builder the last body wins. Bodies that need the request's encoders (`.json`,
/// `.urlEncoded(_:)` with an `Encodable`, `.multipart`, `.file`) are encoded when the request
/// is built, so their errors are thrown by the build and name the block.
public struct RequestBody: Sendable {
    package enum Storage: Sendable {
        /// Bytes and file ranges sent in order; always replayable.
        case segments([BodySegment])
        /// Bytes from an async sequence.
        case stream(BodyStreamSource)
        /// A body encoded when the request is built, with the request's encoders.
        case deferred(source: String, @Sendable (BodyEncodingContext) throws -> RequestBody)
    }

    package var storage: Storage

    /// The media type this body sets as `Content-Type` when the request has none.
    public var contentType: MIMEType?

    /// The number of bytes the body will produce, when known before sending (sent as `Content-Length`).
    public var contentLength: Int64?

    /// How many bytes of a file `chunks()` reads at a time when not told; `nil` means 64 KiB.
    /// A streamed multipart body sets its buffer size here.
    public var preferredChunkSize: Int?

    package init(_ storage: Storage, contentType: MIMEType?, contentLength: Int64?) {
        self.storage = storage
        self.contentType = contentType
        self.contentLength = contentLength
    }

    /// Whether the body can be produced again from the start, for a retry or a redirect.
    public var isReplayable: Bool {
        switch storage {
        case .segments, .deferred: true
        case .stream(let source): source.isRestartable
        }
    }

    /// Whether the body is known to have no bytes at all.
    public var isEmpty: Bool { contentLength == 0 }
}

extension RequestBody {
    /// No bytes; a `Content-Length: 0` body.
    public static let empty = RequestBody(.segments([]), contentType: nil, contentLength: 0)

    /// Raw bytes, with an optional media type.
    public static func data(_ data: Data, type: MIMEType? = nil) -> RequestBody {
        RequestBody(.segments([.bytes(data)]), contentType: type, contentLength: Int64(data.count))
    }

    /// Raw bytes, with an optional media type.
    public static func data(_ bytes: some Sequence<UInt8>, type: MIMEType? = nil) -> RequestBody {
        .data(Data(bytes), type: type)
    }

    /// UTF-8 text; `text/plain; charset=utf-8` unless another type is given.
    public static func string(_ string: String, type: MIMEType = MIMEType.plainText.charset("utf-8")) -> RequestBody {
        .data(Data(string.utf8), type: type)
    }

    /// An `Encodable` value as JSON, encoded with the request's `JSONEncoder` when the request is built.
    public static func json(_ value: some Encodable & Sendable, type: MIMEType = .json) -> RequestBody {
        deferred(source: "RequestBody.json") { context in
            do {
                return .data(try context.jsonEncoder.encode(value), type: type)
            } catch {
                throw CourierError(
                    .encodingFailed, "could not encode \(Swift.type(of: value)) as JSON",
                    source: "RequestBody.json", underlying: error)
            }
        }
    }

    /// JSON text you already have, sent as is.
    public static func json(text: String, type: MIMEType = .json) -> RequestBody {
        .data(Data(text.utf8), type: type)
    }

    /// A file's contents, read in pieces while sending and never held in memory whole.
    ///
    /// The file's size is read when the request is built, so a missing file is a build error and
    /// `Content-Length` is known up front.
    public static func file(_ url: URL, type: MIMEType = .octetStream) -> RequestBody {
        deferred(source: "RequestBody.file") { _ in
            let length = try BodySegment.fileLength(of: url, source: "RequestBody.file")
            return RequestBody(.segments([.file(url, length: length)]), contentType: type, contentLength: length)
        }
    }

    /// Bytes from a one-shot async sequence: sent once, never replayed.
    ///
    /// Pass `length` when you know it, so the body goes out with `Content-Length` instead of chunked.
    public static func stream<Chunks: AsyncSequence & Sendable>(
        _ chunks: Chunks, length: Int64? = nil, type: MIMEType? = nil
    ) -> RequestBody where Chunks.Element == Data {
        RequestBody(.stream(.oneShot(chunks)), contentType: type, contentLength: length)
    }

    /// Bytes from an async sequence that `makeChunks` can create afresh, so the body can be replayed.
    public static func stream<Chunks: AsyncSequence & Sendable>(
        length: Int64? = nil, type: MIMEType? = nil,
        restartable makeChunks: @escaping @Sendable () -> Chunks
    ) -> RequestBody where Chunks.Element == Data {
        RequestBody(.stream(.restartable(makeChunks)), contentType: type, contentLength: length)
    }

    /// A body computed when the request is built, with access to the request's encoders.
    static func deferred(
        source: String, _ make: @escaping @Sendable (BodyEncodingContext) throws -> RequestBody
    ) -> RequestBody {
        RequestBody(.deferred(source: source, make), contentType: nil, contentLength: nil)
    }
}

extension RequestBody {
    /// Encodes a deferred body with `context`; any other body is returned as it is.
    package func resolved(with context: BodyEncodingContext) throws -> RequestBody {
        guard case .deferred(let source, let make) = storage else { return self }
        do {
            return try make(context).resolved(with: context)
        } catch var error as CourierError {
            if error.source == nil { error.source = source }
            throw error
        } catch {
            throw CourierError(.encodingFailed, "could not encode the body", source: source, underlying: error)
        }
    }
}

/// The encoders a deferred body uses, taken from the request being built.
///
/// Each is read from the options when the body asks for it: building a request with no body, or
/// with one already in bytes, makes no encoder.
package struct BodyEncodingContext: Sendable {
    package var options: RequestOptions

    /// The encoders a request's options name, or the defaults.
    init(options: RequestOptions) { self.options = options }

    package static var standard: BodyEncodingContext { BodyEncodingContext(options: RequestOptions()) }

    /// Settable: `WithJSONEncoder` pins its encoder for the body it wraps.
    var jsonEncoder: JSONEncoder {
        get { options[JSONEncoderOption.self] }
        set { options[JSONEncoderOption.self] = newValue }
    }

    var formEncoder: URLFormEncoder { options[URLFormEncoderOption.self] }
}

extension RequestBody: RequestBuildable {
    /// Sets this body on the request; a later body block replaces it.
    public func apply(to draft: inout RequestDraft) throws {
        draft.body = self
    }
}
