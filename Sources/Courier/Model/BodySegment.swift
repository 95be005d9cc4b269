#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// One piece of a replayable body: bytes in memory, or a whole file read while sending.
public enum BodySegment: Sendable, Equatable {
    /// Bytes held in memory.
    case bytes(Data)
    /// A file of `length` bytes, read from disk in pieces while sending.
    case file(URL, length: Int64)

    /// The number of bytes this segment produces.
    public var length: Int64 {
        switch self {
        case .bytes(let data): Int64(data.count)
        case .file(_, let length): length
        }
    }

    /// The size of the regular file at `url`, or an `encodingFailed` error naming `source`.
    package static func fileLength(of url: URL, source: String) throws -> Int64 {
        guard url.isFileURL else {
            throw CourierError(.encodingFailed, "\(url) is not a file URL", source: source)
        }
        switch RegularFile.kind(atPath: url.path) {
        case .missing:
            throw CourierError(.encodingFailed, "cannot read file \(url.path): it does not exist", source: source)
        case .other:
            throw CourierError(.encodingFailed, "\(url.path) is not a regular file", source: source)
        case .file(let size):
            return size
        }
    }
}
