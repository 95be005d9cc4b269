public import Foundation

extension RequestBody {
    /// The body's bytes as an async sequence of chunks, pulled one at a time (no read-ahead).
    ///
    /// Iterate it once per send: a one-shot stream's underlying sequence is not restarted.
    ///
    /// Files are read `chunkSize` bytes at a time (by default the body's `preferredChunkSize`, else
    /// 64 KiB), so a body of any size is sent in bounded memory.
    public struct Chunks: AsyncSequence, Sendable {
        public typealias Element = Data

        private let makeIteratorBody: @Sendable () -> AsyncIterator

        init(_ makeIterator: @escaping @Sendable () -> AsyncIterator) { self.makeIteratorBody = makeIterator }

        public func makeAsyncIterator() -> AsyncIterator { makeIteratorBody() }

        /// Produces the next chunk on demand; `nil` at the end of the body.
        public struct AsyncIterator: AsyncIteratorProtocol {
            private var produce: () async throws -> Data?

            init(_ produce: @escaping () async throws -> Data?) { self.produce = produce }

            public mutating func next() async throws -> Data? { try await produce() }
        }
    }

    /// Starts producing the body's bytes, reading files `chunkSize` bytes at a time when given.
    ///
    /// - Throws: `bodyNotReplayable` when a one-shot stream was already started; `encodingFailed`
    ///   when a deferred body cannot be encoded.
    public func chunks(chunkSize: Int? = nil) throws -> Chunks {
        switch storage {
        case .segments(let segments):
            let size = max(1, chunkSize ?? preferredChunkSize ?? 64 * 1024)
            return Chunks { Self.segmentIterator(segments, chunkSize: size) }
        case .stream(let source):
            try source.claim()
            return Chunks { source.makeIterator() }
        case .deferred:
            return try resolved(with: .standard).chunks(chunkSize: chunkSize)
        }
    }

    /// Collects the whole body in memory; meant for small bodies, tests and logging.
    ///
    /// - Throws: `limitExceeded` when the body is larger than `limit` bytes.
    public func collect(upTo limit: Int = .max) async throws -> Data {
        var collected = Data()
        for try await chunk in try chunks() {
            guard chunk.count <= limit - collected.count else {
                throw CourierError(
                    .limitExceeded, "the body is larger than \(limit) bytes", source: "RequestBody.collect")
            }
            collected.append(chunk)
        }
        return collected
    }

    /// The body's segments when it is made only of bytes and files, as curl commands and C readers need.
    public var segments: [BodySegment]? {
        if case .segments(let segments) = storage { return segments }
        return nil
    }

    private static func segmentIterator(_ segments: [BodySegment], chunkSize: Int) -> Chunks.AsyncIterator {
        var remaining = segments[...]
        var reader: FileReader?
        return Chunks.AsyncIterator {
            while true {
                if let current = reader {
                    if let chunk = try current.read(upTo: chunkSize) { return chunk }
                    reader = nil
                }
                guard let segment = remaining.popFirst() else { return nil }
                switch segment {
                case .bytes(let data) where data.isEmpty:
                    continue
                case .bytes(let data):
                    return data
                case .file(let url, let length):
                    reader = try FileReader(url: url, expectedLength: length)
                }
            }
        }
    }
}

/// Reads a file in pieces and checks it still has the length the body announced.
private final class FileReader {
    private let handle: FileHandle
    private let url: URL
    private let expectedLength: Int64
    private var delivered: Int64 = 0

    init(url: URL, expectedLength: Int64) throws {
        do {
            handle = try FileHandle(forReadingFrom: url)
        } catch {
            throw CourierError(
                .encodingFailed, "cannot open \(url.path)", source: "RequestBody.file", underlying: error)
        }
        self.url = url
        self.expectedLength = expectedLength
    }

    deinit { try? handle.close() }

    func read(upTo count: Int) throws -> Data? {
        let wanted = Int(min(Int64(count), expectedLength - delivered))
        guard wanted > 0 else { return nil }
        let chunk: Data
        do {
            chunk = try handle.read(upToCount: wanted) ?? Data()
        } catch {
            throw CourierError(
                .encodingFailed, "cannot read \(url.path)", source: "RequestBody.file", underlying: error)
        }
        guard !chunk.isEmpty else {
            throw CourierError(
                .encodingFailed,
                "\(url.path) shrank while being sent: expected \(expectedLength) bytes, got \(delivered)",
                source: "RequestBody.file")
        }
        delivered += Int64(chunk.count)
        return chunk
    }
}
