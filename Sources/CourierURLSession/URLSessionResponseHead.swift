import Courier
import Foundation
import HTTPTypes

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A response head converted from URLSession's `HTTPURLResponse`, checked against the limits.
///
/// URLSession keeps header fields in a dictionary, so their order is lost (they come in name
/// order) and repeated fields arrive joined with ", ": the `Set-Cookie` lines are split again,
/// at each comma that starts a new `name=`, as Foundation's own `HTTPCookie` does. URLSession
/// decodes `gzip`, `deflate` and `br` bodies itself; a decoded response loses `Content-Encoding`
/// and `Content-Length`, as with the other transports.
struct URLSessionResponseHead {
    let status: HTTPResponse.Status
    let fields: HTTPFields
    let expectedLength: Int64?

    /// The content codings URLSession decodes before the delegate sees the body.
    static let decodedCodings: Set<String> = ["gzip", "x-gzip", "deflate", "br"]

    /// - Throws: a `URLSessionExchangeFailure.rejected` for a head past `limits` or framed ambiguously.
    init(_ response: HTTPURLResponse, method: HTTPRequest.Method, limits: Limits) throws(URLSessionExchangeFailure) {
        var received = HTTPFields()
        var headBytes = 17
        let pairs = response.allHeaderFields.compactMap { key, value -> (String, String)? in
            guard let name = key as? String else { return nil }
            return (name, value as? String ?? "\(value)")
        }.sorted { $0.0.lowercased() < $1.0.lowercased() }
        for (name, value) in pairs {
            guard let fieldName = HTTPField.Name(name) else {
                throw .rejected(
                    limit: false,
                    message: "the response has a header field named \"\(name)\", which is not a valid token",
                    source: "URLSessionTransport")
            }
            let values = fieldName == .setCookie ? Self.setCookieLines(value) : [value]
            for value in values {
                received.append(HTTPField(name: fieldName, value: value))
                headBytes += name.utf8.count + value.utf8.count + 4
            }
        }
        guard received.count <= limits.maxHeaderCount else {
            throw .rejected(
                limit: true,
                message:
                    "the response has \(received.count) header lines, more than the limit of \(limits.maxHeaderCount)",
                source: "Limits.maxHeaderCount")
        }
        guard headBytes <= limits.maxHeaderBytes else {
            throw .rejected(
                limit: true,
                message: "the response head is \(headBytes) bytes, more than the limit of \(limits.maxHeaderBytes)",
                source: "Limits.maxHeaderBytes")
        }
        if let problem = received.framingProblem {
            throw .rejected(limit: false, message: problem, source: "URLSessionTransport")
        }
        let code = response.statusCode
        let hasBody = method != .head && code != 204 && code != 304 && !(100..<200).contains(code)
        let codings =
            received[.contentEncoding]?.split(separator: ",").map {
                $0.trimmingCharacters(in: .whitespaces).lowercased()
            }
            ?? []
        let decoded =
            hasBody && !codings.isEmpty && codings.allSatisfy { $0 == "identity" || Self.decodedCodings.contains($0) }
        if decoded {
            received[.contentEncoding] = nil
            received[.contentLength] = nil
        }
        status = HTTPResponse.Status(code: code)
        fields = received
        if !hasBody {
            expectedLength = 0
        } else if decoded {
            expectedLength = nil
        } else {
            expectedLength = received[.contentLength].flatMap { Int64($0, radix: 10) }
        }
    }

    /// The `Set-Cookie` lines that URLSession joined with ", " into `value`: split at each comma
    /// followed by a token and `=` (a new cookie), not at the comma of an `Expires` date.
    static func setCookieLines(_ value: String) -> [String] {
        var lines: [String] = []
        var current = Substring(value)
        var searchStart = current.startIndex
        while let comma = current[searchStart...].firstIndex(of: ",") {
            let rest = current[current.index(after: comma)...].drop { $0 == " " || $0 == "\t" }
            let name = rest.prefix { $0 != "=" && $0 != ";" && $0 != "," && $0 != " " }
            if !name.isEmpty, rest.dropFirst(name.count).first == "=" {
                lines.append(String(current[..<comma]))
                current = rest
                searchStart = current.startIndex
            } else {
                searchStart = current.index(after: comma)
            }
        }
        lines.append(String(current))
        return lines
    }
}
