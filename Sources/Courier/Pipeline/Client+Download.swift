import HTTPTypes

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension Client {
    /// Streams the body of `request` into the file at `path`, never holding it in memory, and
    /// resumes a download that broke off when `resume` is set: `curl -C -`, `http --download
    /// --continue`, URLSession's resume data.
    ///
    /// ```swift
    /// let head = try await client.download(try Request { BaseURL(imageURL) }, to: "debian.iso", resume: true)
    /// ```
    ///
    /// The body goes to `path.part`, renamed to `path` once it is whole; the part stays when the
    /// transfer breaks off, with the response's validator beside it (`path.part.validator`: a
    /// strong `ETag`, else `Last-Modified`). With `resume`, a part with a validator is continued:
    /// the request asks for the rest with `Range` and `If-Range`; a `206` from the part's end is
    /// appended, a `200` (the file changed, or the server ignores ranges) starts over, and a `416`
    /// for a part that is already whole completes it. A part without a validator starts over. The
    /// file's final length is checked against the length the server announced.
    ///
    /// The request asks for the body as stored (`Accept-Encoding: identity` unless it sets its
    /// own), so byte ranges count the same bytes the file holds.
    ///
    /// - Parameters:
    ///   - request: the request for the file; usually a `GET`.
    ///   - path: where the whole file goes; the part is beside it until then.
    ///   - resume: whether to continue a part an earlier download left, when it has a validator.
    ///   - progress: called after each chunk is written, with the file's length so far and its
    ///     final length when known.
    /// - Returns: the response, its body already in the file.
    /// - Throws: `unacceptableStatus` (with the response) for a status other than 2xx, and no
    ///   file is made; `invalidResponse` when the server resumes elsewhere than asked or the file
    ///   ends short of the announced length; `invalidRequest` when the file cannot be written; and
    ///   whatever the transfer throws, the part kept for a later resume.
    public nonisolated(nonsending) func download(
        _ request: Request, to path: String, resume: Bool = false,
        progress: (@Sendable (_ written: Int64, _ total: Int64?) -> Void)? = nil
    ) async throws -> Response {
        let part = DownloadPart(destination: path)
        var request = request
        if request.headerFields[.acceptEncoding] == nil { request.headerFields[.acceptEncoding] = "identity" }
        let resumedAt = resume ? part.resumableLength() : nil
        if let resumedAt {
            request.headerFields[.range] = "bytes=\(resumedAt.length)-"
            request.headerFields[.ifRange] = resumedAt.validator
        }
        let response = try await stream(request)
        let status = response.status.code
        if let resumedAt, status == 416,
            ContentRange(response.headerFields[.contentRange])?.completeLength == resumedAt.length
        {
            response.bodyStream?.discard()
            try part.complete()
            return response.withoutBody
        }
        guard (200..<300).contains(status) else {
            response.bodyStream?.discard()
            throw CourierError(
                .unacceptableStatus, "the download of \(request.url.absoluteString) was answered \(status)",
                source: "Client.download", request: request, response: response)
        }
        let offset: Int64
        let total: Int64?
        if let resumedAt, status == 206 {
            let range = ContentRange(response.headerFields[.contentRange])
            guard let range, range.first == resumedAt.length else {
                response.bodyStream?.discard()
                throw CourierError(
                    .invalidResponse,
                    "asked to resume at byte \(resumedAt.length), the server sent \(response.headerFields[.contentRange] ?? "no Content-Range")",
                    source: "Client.download", request: request, response: response)
            }
            (offset, total) = (resumedAt.length, range.completeLength)
        } else {
            (offset, total) = (0, response.bodyStream?.expectedLength ?? Int64(response.body.count))
            try part.start(validator: Self.resumeValidator(of: response))
        }
        let written = try await part.append(response, from: offset) { length in progress?(length, total) }
        if let total, written != total {
            throw CourierError(
                .invalidResponse, "the download ended at byte \(written) of \(total); resume it to fetch the rest",
                source: "Client.download", request: request, response: response)
        }
        try part.complete()
        return response.withoutBody
    }

    /// The validator `If-Range` may carry for this response: a strong `ETag`, else `Last-Modified`
    /// (RFC 9110 §13.1.5; a weak `ETag` may not be used).
    static func resumeValidator(of response: Response) -> String? {
        if let tag = response.headerFields[.eTag], !tag.hasPrefix("W/") { return tag }
        return response.headerFields[.lastModified]
    }
}

extension Response {
    /// This response with no body left to read: what a download returns once the body is in the file.
    fileprivate var withoutBody: Response {
        var head = self
        head.bodyStream = nil
        head.body = Data()
        return head
    }
}

/// The `Content-Range` of a `206` (`bytes 100-199/200`) or a `416` (`bytes */200`).
struct ContentRange {
    /// The first byte sent; `nil` for an unsatisfied range.
    var first: Int64?
    /// The whole representation's length; `nil` when the server writes `*`.
    var completeLength: Int64?

    init?(_ value: String?) {
        guard let value, value.lowercased().hasPrefix("bytes ") else { return nil }
        let spec = value.dropFirst(6).trimmingWhitespace()
        let parts = spec.split(separator: "/", maxSplits: 1)
        guard parts.count == 2 else { return nil }
        if parts[0] != "*" {
            guard let dash = parts[0].firstIndex(of: "-"), let first = Int64(parts[0][..<dash]) else { return nil }
            self.first = first
        }
        completeLength = parts[1] == "*" ? nil : Int64(parts[1])
        guard first != nil || completeLength != nil else { return nil }
    }
}

/// A download's part file (`destination.part`) and its validator file, which let it resume.
struct DownloadPart {
    let destination: String
    var path: String { destination + ".part" }
    var validatorPath: String { destination + ".part.validator" }

    /// The part's length and validator when it can be resumed: it exists, is not empty and has one.
    func resumableLength() -> (length: Int64, validator: String)? {
        guard let size = PosixFile.size(of: path), size > 0,
            let validator = try? String(contentsOfFile: validatorPath, encoding: .utf8), !validator.isEmpty
        else { return nil }
        return (size, validator)
    }

    /// Starts the part over, and records `validator` (or removes the old one).
    func start(validator: String?) throws {
        if let validator {
            do {
                try validator.write(toFile: validatorPath, atomically: true, encoding: .utf8)
            } catch {
                throw CourierError(
                    .invalidRequest, "cannot write \(validatorPath)", source: "Client.download", underlying: error)
            }
        } else {
            unlink(validatorPath)
        }
    }

    /// Writes `response`'s body after the part's first `offset` bytes; returns the part's length.
    func append(_ response: Response, from offset: Int64, progress: (Int64) -> Void) async throws -> Int64 {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0, ftruncate(descriptor, off_t(offset)) == 0, lseek(descriptor, 0, SEEK_END) >= 0 else {
            let reason = String(cString: strerror(errno))
            if descriptor >= 0 { close(descriptor) }
            response.bodyStream?.discard()
            throw CourierError(.invalidRequest, "cannot write \(path): \(reason)", source: "Client.download")
        }
        defer { close(descriptor) }
        var length = offset
        func write(_ chunk: Data) throws {
            guard chunk.withUnsafeBytes({ PosixFile.writeAll($0, to: descriptor) }) else {
                throw CourierError(
                    .invalidRequest, "cannot write \(path): \(String(cString: strerror(errno)))",
                    source: "Client.download")
            }
            length += Int64(chunk.count)
            progress(length)
        }
        guard let stream = response.bodyStream else {
            try write(response.body)
            return length
        }
        do {
            for try await chunk in stream { try write(chunk) }
        } catch {
            stream.discard()
            throw error
        }
        return length
    }

    /// Puts the whole file in place (`rename(2)`, replacing what was there) and forgets the validator.
    func complete() throws {
        guard rename(path, destination) == 0 else {
            throw CourierError(
                .invalidRequest, "cannot move \(path) to \(destination): \(String(cString: strerror(errno)))",
                source: "Client.download")
        }
        unlink(validatorPath)
    }
}
