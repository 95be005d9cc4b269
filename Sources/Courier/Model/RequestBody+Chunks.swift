#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

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

/// Reads a file in pieces and checks it still has the length the body announced. With POSIX
/// calls: Foundation's `FileHandle` is in full Foundation only, which the core does without.
private final class FileReader {
    private let descriptor: Int32
    private let url: URL
    private let expectedLength: Int64
    private var delivered: Int64 = 0

    init(url: URL, expectedLength: Int64) throws {
        descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw CourierError(
                .encodingFailed, "cannot open \(url.path): \(String(cString: strerror(errno)))",
                source: "RequestBody.file")
        }
        self.url = url
        self.expectedLength = expectedLength
    }

    deinit { close(descriptor) }

    func read(upTo count: Int) throws -> Data? {
        let wanted = Int(min(Int64(count), expectedLength - delivered))
        guard wanted > 0 else { return nil }
        var chunk = Data(count: wanted)
        var got = 0
        while got < wanted {
            let result = chunk.withUnsafeMutableBytes { bytes in
                systemRead(descriptor, bytes.baseAddress! + got, wanted - got)
            }
            if result < 0, errno == EINTR { continue }
            guard result >= 0 else {
                throw CourierError(
                    .encodingFailed, "cannot read \(url.path): \(String(cString: strerror(errno)))",
                    source: "RequestBody.file")
            }
            if result == 0 { break }
            got += result
        }
        guard got > 0 else {
            throw CourierError(
                .encodingFailed,
                "\(url.path) shrank while being sent: expected \(expectedLength) bytes, got \(delivered)",
                source: "RequestBody.file")
        }
        chunk.count = got
        delivered += Int64(got)
        return chunk
    }
}

/// `read(2)`, under a name of its own: `FileReader.read(upTo:)` would hide it.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
