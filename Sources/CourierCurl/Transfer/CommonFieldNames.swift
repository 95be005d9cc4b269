import HTTPTypes

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The field names most responses carry, in the spellings servers send them: HTTP/1.1's usual
/// capitalisation and HTTP/2's lower case.
///
/// A header line whose name is one of these, byte for byte, reuses the prepared name instead of
/// building a `String`, validating it and lowercasing it; every other spelling goes the long way,
/// so a name keeps the casing it arrived in either way.
enum CommonFieldNames {
    /// The prepared names by length in bytes.
    private static let byLength: [[(spelling: [UInt8], name: HTTPField.Name)]] = {
        let spellings = [
            "Date", "Server", "Content-Type", "Content-Length", "Connection", "Keep-Alive",
            "Transfer-Encoding", "Content-Encoding", "Last-Modified", "ETag", "Etag", "Accept-Ranges",
            "Cache-Control", "Vary", "Location", "Set-Cookie", "Expires", "Age", "Pragma",
            "Access-Control-Allow-Origin", "Content-Disposition", "Strict-Transport-Security",
            "X-Content-Type-Options", "X-Frame-Options", "WWW-Authenticate", "Retry-After", "Via",
        ]
        var table: [[(spelling: [UInt8], name: HTTPField.Name)]] = []
        for spelling in spellings + spellings.map({ $0.lowercased() }) {
            guard let name = HTTPField.Name(spelling) else { continue }
            let bytes = Array(spelling.utf8)
            while table.count <= bytes.count { table.append([]) }
            if !table[bytes.count].contains(where: { $0.spelling == bytes }) {
                table[bytes.count].append((bytes, name))
            }
        }
        return table
    }()

    /// The prepared name spelled exactly as `bytes`, or `nil`.
    static func name(spelledAs bytes: UnsafeRawBufferPointer) -> HTTPField.Name? {
        guard bytes.count < byLength.count, let base = bytes.baseAddress else { return nil }
        for entry in byLength[bytes.count] {
            let same = entry.spelling.withUnsafeBytes { memcmp($0.baseAddress!, base, bytes.count) == 0 }
            if same { return entry.name }
        }
        return nil
    }
}
