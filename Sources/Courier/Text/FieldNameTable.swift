package import HTTPTypes

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Header field names found by their bytes, exactly as spelled, without building a `String`,
/// validating it and lowercasing it: the one lookup both the curl transport's head parser
/// (``common``, the names most responses carry) and the C API's header setters (a small table per
/// thread of the names interceptors set, ``remember(_:)``) use.
///
/// A spelling not in the table goes the long way, so a name keeps the casing it arrived in.
package struct FieldNameTable: Sendable {
    private struct Entry: Sendable {
        let spelling: [UInt8]
        let name: HTTPField.Name
    }

    /// The entries by length in bytes: a lookup compares only spellings of its own length.
    private var byLength: [[Entry]] = []
    /// The spellings remembered, oldest first, when the table is bounded.
    private var order: [[UInt8]] = []
    /// The most entries a table that remembers keeps; `nil` for a fixed table.
    private let capacity: Int?

    /// An empty table that keeps the last `capacity` names it is told to remember.
    package init(capacity: Int) {
        self.capacity = capacity
    }

    /// A fixed table of `spellings`, each also in lower case (HTTP/2's spelling).
    package init(spellings: [String]) {
        capacity = nil
        for spelling in spellings + spellings.map({ $0.lowercased() }) {
            guard let name = HTTPField.Name(spelling) else { continue }
            insert(Entry(spelling: Array(spelling.utf8), name: name))
        }
    }

    /// The field names most responses carry, in the spellings servers send them: HTTP/1.1's usual
    /// capitalisation and HTTP/2's lower case.
    package static let common = FieldNameTable(spellings: [
        "Date", "Server", "Content-Type", "Content-Length", "Connection", "Keep-Alive",
        "Transfer-Encoding", "Content-Encoding", "Last-Modified", "ETag", "Etag", "Accept-Ranges",
        "Cache-Control", "Vary", "Location", "Set-Cookie", "Expires", "Age", "Pragma",
        "Access-Control-Allow-Origin", "Content-Disposition", "Strict-Transport-Security",
        "X-Content-Type-Options", "X-Frame-Options", "WWW-Authenticate", "Retry-After", "Via",
    ])

    /// The name spelled exactly as `bytes`, or `nil`.
    package func name(spelledAs bytes: UnsafeRawBufferPointer) -> HTTPField.Name? {
        guard bytes.count < byLength.count, let base = bytes.baseAddress else { return nil }
        for entry in byLength[bytes.count] {
            let same = entry.spelling.withUnsafeBytes { memcmp($0.baseAddress!, base, bytes.count) == 0 }
            if same { return entry.name }
        }
        return nil
    }

    /// The name spelled exactly as the C string `spelling`, or `nil`.
    package func name(spelled spelling: UnsafePointer<CChar>) -> HTTPField.Name? {
        name(spelledAs: UnsafeRawBufferPointer(start: spelling, count: strlen(spelling)))
    }

    /// Keeps `name` under its spelling, forgetting the oldest entry when the table is full; a
    /// fixed table stays as it is.
    package mutating func remember(_ name: HTTPField.Name) {
        guard let capacity else { return }
        let spelling = Array(name.rawName.utf8)
        if spelling.count < byLength.count, byLength[spelling.count].contains(where: { $0.spelling == spelling }) {
            return
        }
        if order.count == capacity {
            let oldest = order.removeFirst()
            byLength[oldest.count].removeAll { $0.spelling == oldest }
        }
        order.append(spelling)
        insert(Entry(spelling: spelling, name: name))
    }

    private mutating func insert(_ entry: Entry) {
        while byLength.count <= entry.spelling.count { byLength.append([]) }
        if !byLength[entry.spelling.count].contains(where: { $0.spelling == entry.spelling }) {
            byLength[entry.spelling.count].append(entry)
        }
    }
}
