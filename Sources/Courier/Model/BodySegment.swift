public import Foundation

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
    static func fileLength(of url: URL, source: String) throws -> Int64 {
        guard url.isFileURL else {
            throw CourierError(.encodingFailed, "\(url) is not a file URL", source: source)
        }
        let attributes: [FileAttributeKey: Any]
        do {
            attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        } catch {
            throw CourierError(.encodingFailed, "cannot read file \(url.path)", source: source, underlying: error)
        }
        guard attributes[.type] as? FileAttributeType != .typeDirectory,
            let size = (attributes[.size] as? NSNumber)?.int64Value
        else {
            throw CourierError(.encodingFailed, "\(url.path) is not a regular file", source: source)
        }
        return size
    }
}
