import HTTPTypes

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A response as the cache keeps it: status, header lines, body, the request header values its
/// `Vary` names, and the clock readings RFC 9111 §4.2.3 computes its age from.
struct StoredResponse: Codable, Equatable, Sendable {
    /// `GET <absolute URL without fragment>`: the primary cache key (§2).
    var key: String
    var status: Int
    var reason: String
    /// Header lines in order, hop-by-hop fields left out.
    var headerLines: [[String]]
    /// For each field `Vary` names (lower-cased), the request's value, `nil` when absent.
    var varying: [String: String?]
    /// When the request was sent and when its response arrived (§4.2.3's `request_time`, `response_time`).
    var requestTime: Date
    var responseTime: Date
    var body: Data

    var headerFields: HTTPFields {
        var fields = HTTPFields()
        for line in headerLines where line.count == 2 {
            if let name = HTTPField.Name(line[0]) { fields.append(HTTPField(name: name, value: line[1])) }
        }
        return fields
    }

    /// The bytes the entry costs a store: its body and header text, plus a fixed allowance.
    var size: Int64 {
        Int64(
            body.count + key.utf8.count + headerLines.reduce(0) { $0 + $1.reduce(0) { $0 + $1.utf8.count + 4 } } + 256)
    }

    /// The key of this entry among the responses stored for `key`: its varying values.
    var variantKey: String { Self.variantKey(varying) }

    static func variantKey(_ varying: [String: String?]) -> String {
        varying.keys.sorted().map { "\($0)=\(varying[$0]!.map { "\"\($0)\"" } ?? "-")" }.joined(separator: ";")
    }

    init(
        key: String, response: Response, body: Data, varying: [String: String?], requestTime: Date, responseTime: Date
    ) {
        self.key = key
        status = response.status.code
        reason = response.status.reasonPhrase
        headerLines = Self.storableLines(response.headerFields)
        self.varying = varying
        self.requestTime = requestTime
        self.responseTime = responseTime
        self.body = body
    }

    /// The lines of `fields` a cache stores (§3.1): not the hop-by-hop ones, nor those `Connection`
    /// names, nor an earlier cache's `Cache-Status` about an earlier exchange.
    static func storableLines(_ fields: HTTPFields) -> [[String]] {
        var skipped: Set<String> = [
            "connection", "keep-alive", "proxy-connection", "te", "transfer-encoding", "upgrade",
            "proxy-authenticate", "proxy-authorization", "trailer", "cache-status",
        ]
        for value in fields[values: .connection] {
            for token in value.split(separator: ",") { skipped.insert(token.trimmingWhitespace().lowercased()) }
        }
        return fields.filter { !skipped.contains($0.name.canonicalName) }.map { [$0.name.rawName, $0.value] }
    }

    /// The stored fields updated by a `304`'s (§3.2): each field the `304` carries replaces the
    /// stored lines of that name, except the framing ones, which describe the stored body.
    mutating func update(with notModified: HTTPFields) {
        let kept: Set<String> = ["content-length", "content-encoding", "content-type", "content-range"]
        let incoming = Self.storableLines(notModified).filter { !kept.contains($0[0].lowercased()) }
        let replacing = Set(incoming.map { $0[0].lowercased() })
        headerLines.removeAll { replacing.contains($0[0].lowercased()) }
        headerLines += incoming
    }
}
