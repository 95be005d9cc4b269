import Courier
import Foundation

/// A request body in a form URLSession sends: bytes in memory, or a file it reads as it sends.
///
/// URLSession streams a body only from an `InputStream`, which FoundationNetworking reads on its
/// session queue and ends at the first moment no bytes are available; so a streamed body, or
/// bytes mixed with files (a streamed multipart), is first written to a temporary file (the
/// "spool", removed when the exchange ends), then uploaded from it with a `Content-Length`.
enum UploadBody: Sendable {
    /// No body.
    case none
    /// Bytes sent as `httpBody`.
    case bytes(Data)
    /// A file uploaded as it is read; `spooled` when the transport wrote it and removes it.
    case file(URL, spooled: Bool)

    /// The form of `request`'s body URLSession sends.
    ///
    /// - Throws: `encodingFailed` when the body cannot be produced or spooled (the stream failed,
    ///   the temporary directory is not writable); `bodyNotReplayable` for a one-shot stream already read.
    static func prepare(_ request: Request) async throws -> UploadBody {
        guard var body = request.body else { return .none }
        body = try body.resolved(with: .standard)
        if case .segments(let segments) = body.storage {
            if segments.count == 1, case .file(let url, let length) = segments[0],
                (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.int64Value == length
            {
                return .file(url, spooled: false)
            }
            if segments.allSatisfy({ if case .bytes = $0 { true } else { false } }) {
                var data = Data(capacity: Int(body.contentLength ?? 0))
                for case .bytes(let bytes) in segments { data.append(bytes) }
                return .bytes(data)
            }
        }
        return try await spool(body, for: request)
    }

    /// Writes `body` to a new temporary file.
    private static func spool(_ body: RequestBody, for request: Request) async throws -> UploadBody {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("courier-upload-\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: url.path, contents: nil),
            let handle = try? FileHandle(forWritingTo: url)
        else {
            throw CourierError(
                .encodingFailed, "cannot create \(url.path) to hold the streamed request body",
                source: "URLSessionTransport", request: request)
        }
        do {
            defer { try? handle.close() }
            for try await chunk in try body.chunks() {
                try handle.write(contentsOf: chunk)
            }
        } catch {
            try? FileManager.default.removeItem(at: url)
            if let error = error as? CourierError { throw error }
            throw CourierError(
                .encodingFailed, "the streamed request body could not be written to \(url.path)",
                source: "URLSessionTransport", request: request, underlying: error)
        }
        return .file(url, spooled: true)
    }

    /// Removes the temporary file of a spooled body; nothing for any other.
    func removeSpooledFile() {
        guard case .file(let url, spooled: true) = self else { return }
        try? FileManager.default.removeItem(at: url)
    }
}
