public import Courier
import HTTPTypes

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Writes Courier's requests and responses as archive objects, with secrets hidden.
///
/// Shared by `HARRecorder` and `CassetteTransport`, so a recording and a cassette hide the same
/// things the same way, and the same way `LoggingInterceptor` does.
struct HARTranscriber: Sendable {
    /// What to hide; `nil` records everything as it was.
    var redaction: Redaction?
    /// The most bytes of one body kept in the archive.
    var maxBodyBytes: Int

    /// A request body as it could be recorded before sending.
    enum RequestBodyCapture: Sendable {
        case none
        case bytes(Data)
        case notRecorded(String)
    }

    /// Reads `request`'s body for the archive without spending it: bytes and files are read
    /// again by the transport, a one-shot stream is left alone and noted as not recorded.
    func captureBody(of request: Request) async -> RequestBodyCapture {
        guard let body = request.body else { return .none }
        guard body.segments != nil else { return .notRecorded("a streamed body, not recorded") }
        do {
            return .bytes(try await body.collect(upTo: maxBodyBytes))
        } catch let error as CourierError where error.code == .limitExceeded {
            return .notRecorded("a body larger than \(maxBodyBytes) bytes, not recorded")
        } catch {
            return .notRecorded("the body could not be read: \(error)")
        }
    }

    /// The values to cut out of recorded text: whatever `redaction` hides in `fields` and `url`.
    func secrets(in fields: HTTPFields, url: URL? = nil) -> [String] {
        redaction?.secrets(in: fields, url: url) ?? []
    }

    /// `request` as the archive holds it, with `body` as its `postData`.
    func request(_ request: Request, body: RequestBodyCapture, secrets: [String]) -> HTTPArchive.Request {
        let url = redaction?.redacting(request.url) ?? request.url
        let fields = request.wireHeaderFields
        let queryString = (URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []).map {
            HTTPArchive.NameValue(name: $0.name, value: $0.value ?? "")
        }
        let mimeType = fields[.contentType] ?? request.body?.contentType?.rawValue ?? ""
        var postData: HTTPArchive.PostData?
        switch body {
        case .none:
            postData = nil
        case .bytes(let bytes):
            let (text, encoding) = Self.text(of: bytes)
            postData = HTTPArchive.PostData(
                mimeType: mimeType, text: scrubbed(text, encoding: encoding, secrets: secrets), encoding: encoding)
        case .notRecorded(let reason):
            postData = HTTPArchive.PostData(mimeType: mimeType, text: nil, comment: reason)
        }
        let bodySize: Int =
            switch body {
            case .none: 0
            case .bytes(let bytes): request.body?.contentLength.map(Int.init) ?? bytes.count
            case .notRecorded: request.body?.contentLength.map(Int.init) ?? -1
            }
        return HTTPArchive.Request(
            method: request.method.rawValue, url: url.absoluteString,
            cookies: requestCookies(fields), headers: headers(fields), queryString: queryString,
            postData: postData, bodySize: bodySize)
    }

    /// `response`'s head as the archive holds it, with an empty body for `content(…)` to fill.
    func responseHead(_ response: Response) -> HTTPArchive.Response {
        HTTPArchive.Response(
            status: response.status.code, statusText: response.status.reasonPhrase,
            cookies: responseCookies(response.headerFields), headers: headers(response.headerFields),
            content: HTTPArchive.Content(size: 0, mimeType: response.headerFields[.contentType] ?? "x-unknown"),
            redirectURL: response.headerFields[.location] ?? "")
    }

    /// The response of an exchange that failed before one arrived: status 0 and the error.
    func failedResponse(_ error: any Error, secrets: [String]) -> HTTPArchive.Response {
        let reason = redaction?.scrubbing("\(error)", secrets: secrets) ?? "\(error)"
        return HTTPArchive.Response(
            status: 0, statusText: "", content: HTTPArchive.Content(size: 0, mimeType: "x-unknown"),
            comment: reason)
    }

    /// A response body of `size` bytes, of which `kept` were kept.
    func content(kept: Data, size: Int, mimeType: String, secrets: [String]) -> HTTPArchive.Content {
        guard size > 0 else { return HTTPArchive.Content(size: 0, mimeType: mimeType) }
        let (text, encoding) = Self.text(of: kept)
        let cut = kept.count < size ? "cut at the recorder's limit: \(kept.count) of \(size) bytes recorded" : nil
        return HTTPArchive.Content(
            size: size, mimeType: mimeType, text: scrubbed(text, encoding: encoding, secrets: secrets),
            encoding: encoding, comment: cut)
    }

    /// The header fields as name-value pairs, hidden values replaced.
    func headers(_ fields: HTTPFields) -> [HTTPArchive.NameValue] {
        (redaction?.redacting(fields) ?? fields).map { HTTPArchive.NameValue(name: $0.name.rawName, value: $0.value) }
    }

    private func requestCookies(_ fields: HTTPFields) -> [HTTPArchive.Cookie] {
        let hidden = redaction?.hides(.cookie) ?? false
        return fields[values: .cookie].flatMap { $0.split(separator: ";") }.compactMap { pair in
            let parts = pair.split(separator: "=", maxSplits: 1)
            let name = parts.first.map { $0.trimmingWhitespace() } ?? ""
            guard !name.isEmpty else { return nil }
            let value = parts.count > 1 ? String(parts[1]).trimmingWhitespace() : ""
            return HTTPArchive.Cookie(name: name, value: hidden ? redaction?.replacement ?? "" : value)
        }
    }

    private func responseCookies(_ fields: HTTPFields) -> [HTTPArchive.Cookie] {
        let hidden = redaction?.hides(.setCookie) ?? false
        return fields[values: .setCookie].compactMap { line in
            let attributes = line.split(separator: ";").map { $0.trimmingWhitespace() }
            guard let first = attributes.first, let equals = first.firstIndex(of: "=") else { return nil }
            var cookie = HTTPArchive.Cookie(
                name: String(first[..<equals]),
                value: hidden ? redaction?.replacement ?? "" : String(first[first.index(after: equals)...]))
            for attribute in attributes.dropFirst() {
                let parts = attribute.split(separator: "=", maxSplits: 1).map(String.init)
                switch parts.first?.lowercased() {
                case "path": cookie.path = parts.count > 1 ? parts[1] : nil
                case "domain": cookie.domain = parts.count > 1 ? parts[1] : nil
                case "httponly": cookie.httpOnly = true
                case "secure": cookie.secure = true
                default: break
                }
            }
            return cookie
        }
    }

    private func scrubbed(_ text: String, encoding: String?, secrets: [String]) -> String {
        guard encoding == nil, let redaction, !secrets.isEmpty else { return text }
        return redaction.scrubbing(text, secrets: secrets)
    }

    /// `bytes` as archive text: as they are when they are UTF-8 text, else base64 (`encoding` set).
    ///
    /// Text means valid UTF-8 without control characters other than tab, CR and LF, so a binary
    /// body that happens to decode is still written exactly, as base64.
    static func text(of bytes: Data) -> (text: String, encoding: String?) {
        if let text = String(validating: bytes, as: UTF8.self),
            !text.unicodeScalars.contains(where: {
                $0.value < 0x20 && $0 != "\t" && $0 != "\n" && $0 != "\r" || $0.value == 0x7F
            })
        {
            return (text, nil)
        }
        return (bytes.base64EncodedString(), "base64")
    }

    /// Bytes written by `text(of:)`, read back; `nil` for base64 that does not decode.
    static func bytes(of text: String, encoding: String?) -> Data? {
        encoding == "base64" ? Data(base64Encoded: text) : Data(text.utf8)
    }

    /// `date` as HAR writes it: ISO 8601 with milliseconds.
    static func timestamp(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    /// `duration` in milliseconds.
    static func milliseconds(_ duration: Duration) -> Double {
        (duration.seconds * 1000 * 1000).rounded() / 1000
    }
}
