import HTTPTypes

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How a multipart body holds its files: read into memory when the request is built, or read
/// from disk while sending.
public enum MultipartStrategy: Sendable, Hashable {
    /// Encodes the whole body into one buffer when the request is built; simplest, for small files.
    case inMemory
    /// Keeps files on disk and reads them `bufferSize` bytes at a time while sending, so memory
    /// stays bounded whatever their size.
    case streamed(bufferSize: Int = 64 * 1024)
}

extension RequestBody {
    /// A `multipart/form-data` body (RFC 7578) made of `parts`, in order.
    ///
    /// The body is encoded when the request is built: a missing or unreadable file, or an invalid
    /// boundary, fails the build with a `CourierError` whose `source` is `RequestBody.multipart`.
    /// Either strategy knows its length up front, so `Content-Length` is sent, and either can be replayed.
    ///
    /// ```swift
    /// RequestBody.multipart(strategy: .streamed()) {
    ///     MultipartPart.field(name: "title", value: "Holiday")
    ///     MultipartPart.file(name: "photo", fileURL: photoURL)
    /// }
    /// ```
    ///
    /// Spell out `MultipartPart.` when parts go on separate lines: a line starting with `.field(…)`
    /// would be read as a method call on the line before it.
    ///
    /// - Parameters:
    ///   - strategy: Whether files are read into memory (`.inMemory`) or streamed from disk.
    ///   - boundary: The delimiter between parts; random unless given. A given boundary must be
    ///     1–70 characters from RFC 2046's `bchars` and must not end in a space.
    ///   - parts: The parts: fields, bytes and files.
    public static func multipart(
        strategy: MultipartStrategy = .inMemory,
        boundary: String? = nil,
        @MultipartBuilder _ parts: () -> [MultipartPart]
    ) -> RequestBody {
        let encoder = MultipartEncoder(boundary: boundary ?? MultipartEncoder.randomBoundary(), strategy: strategy)
        let parts = parts()
        return deferred(source: MultipartEncoder.source) { _ in try encoder.encode(parts) }
    }
}

/// Turns parts into body segments: one buffer in memory, or buffers around file segments when streamed.
package struct MultipartEncoder: Sendable {
    static let source = "RequestBody.multipart"

    let boundary: String
    let strategy: MultipartStrategy

    package init(boundary: String, strategy: MultipartStrategy) {
        self.boundary = boundary
        self.strategy = strategy
    }

    /// `multipart/form-data` with this encoder's boundary, quoted when it is not an RFC 9110 token.
    package var contentType: MIMEType {
        let isToken = HTTPToken.isToken(boundary)
        return MIMEType("\(MIMEType.Multipart.formData.rawValue); boundary=\(isToken ? boundary : "\"\(boundary)\"")")
    }

    package func encode(_ parts: [MultipartPart]) throws -> RequestBody {
        try validateBoundary()
        var bufferSize: Int?
        if case .streamed(let size) = strategy {
            guard size > 0 else {
                throw CourierError(
                    .invalidRequest, "the multipart buffer size must be positive, not \(size)", source: Self.source)
            }
            bufferSize = size
        }
        var segments: [BodySegment] = []
        var pending = Data()
        for part in parts {
            pending.append(contentsOf: "--\(boundary)\r\n".utf8)
            for field in part.headerFields {
                pending.append(contentsOf: "\(field.name.rawName): \(field.value)\r\n".utf8)
            }
            pending.append(contentsOf: "\r\n".utf8)
            switch part.content {
            case .bytes(let data):
                try checkBoundaryIsAbsent(from: data, part: part)
                pending.append(data)
            case .file(let url):
                let length = try BodySegment.fileLength(of: url, source: Self.source)
                if bufferSize == nil {
                    pending.append(try Self.contents(of: url))
                } else if length > 0 {
                    segments.append(.bytes(pending))
                    segments.append(.file(url, length: length))
                    pending = Data()
                }
            }
            pending.append(contentsOf: "\r\n".utf8)
        }
        pending.append(contentsOf: "--\(boundary)--\r\n".utf8)
        segments.append(.bytes(pending))
        let length = segments.reduce(Int64(0)) { $0 + $1.length }
        var body = RequestBody(.segments(segments), contentType: contentType, contentLength: length)
        body.preferredChunkSize = bufferSize
        return body
    }

    /// Checks the boundary against RFC 2046 §5.1.1: 1–70 `bchars`, not ending in a space.
    private func validateBoundary() throws {
        let bytes = Array(boundary.utf8)
        guard (1...70).contains(bytes.count) else {
            throw CourierError(
                .invalidRequest, "a multipart boundary must be 1 to 70 characters long, not \(bytes.count)",
                source: Self.source)
        }
        guard bytes.allSatisfy({ Self.boundaryBytes.contains($0) }) else {
            throw CourierError(
                .invalidRequest, "the multipart boundary \"\(boundary)\" has a character RFC 2046 does not allow",
                source: Self.source)
        }
        guard bytes.last != UInt8(ascii: " ") else {
            throw CourierError(.invalidRequest, "a multipart boundary must not end in a space", source: Self.source)
        }
    }

    /// Refuses in-memory content with a line that starts with the delimiter, which would end the part early.
    private func checkBoundaryIsAbsent(from data: Data, part: MultipartPart) throws {
        let delimiter = Data("--\(boundary)".utf8)
        guard data.starts(with: delimiter) || data.firstRange(of: Data("\r\n".utf8) + delimiter) != nil else { return }
        throw CourierError(
            .encodingFailed, "part \"\(part.name)\" contains the boundary \"\(boundary)\"; choose another",
            source: Self.source)
    }

    private static func contents(of url: URL) throws -> Data {
        do {
            return try Data(contentsOf: url)
        } catch {
            throw CourierError(.encodingFailed, "cannot read file \(url.path)", source: source, underlying: error)
        }
    }

    /// RFC 2046 `bchars`: digits, letters, `'()+_,-./:=?` and space.
    private static let boundaryBytes = Set(
        ("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz" + "'()+_,-./:=? ").utf8)

    /// `courier-` and 24 random letters and digits (about 143 bits), so no content plausibly contains it.
    package static func randomBoundary() -> String {
        let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
        var generator = SystemRandomNumberGenerator()
        let random = (0..<24).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] }
        return "courier-" + String(random)
    }
}
