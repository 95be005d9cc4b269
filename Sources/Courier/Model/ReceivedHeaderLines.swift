package import HTTPTypes
import Synchronization

/// A response's header field lines as a transport received and checked them, made into
/// `HTTPFields` only when first read.
///
/// Most callers read a response's status and body and never its fields, and for a small response
/// parsing every field cost more than the rest of its handling (callgrind: about 14,000
/// instructions per response on the curl transport's I/O thread). The transport checks each line
/// as it arrives, so every error still surfaces while the response is received; the first reader
/// parses, under a lock, and every later reader gets the same fields.
package final class ReceivedHeaderLines: Sendable {
    /// The field lines in arrival order, each without its line end and followed by one line feed.
    private let lines: [UInt8]
    /// Makes the fields from `lines`: the transport's own parser, a function with no captures.
    private let parse: @Sendable (UnsafeRawBufferPointer) -> HTTPFields
    private let parsed = Protected<HTTPFields?>(nil)

    /// Keeps `lines` (see ``lines``) until the first read of ``fields`` hands them to `parse`.
    package init(lines: [UInt8], parse: @escaping @Sendable (UnsafeRawBufferPointer) -> HTTPFields) {
        self.lines = lines
        self.parse = parse
    }

    /// Whether a field is named `name`, found without parsing the fields when they are not yet:
    /// a field is a line that starts with its (checked token) name and a colon, and a folded
    /// line starts with a space or tab, so a line-start match is the field.
    ///
    /// Storing cookies asks it of every response; parsing them all for a `Set-Cookie` that small
    /// responses rarely carry was most of a blocking send's header work from Python.
    package func contains(_ name: HTTPField.Name) -> Bool {
        if let cached = parsed.withLock({ $0 }) { return cached.contains(name) }
        var wanted = name.canonicalName  // lowercase
        return wanted.withUTF8 { wanted in
            lines.withUnsafeBytes { lines in
                var start = 0
                while start < lines.count {
                    let rest = UnsafeRawBufferPointer(rebasing: lines[start...])
                    if rest.count > wanted.count, rest[wanted.count] == UInt8(ascii: ":"),
                        ASCIIBytes.equalIgnoringCase(
                            UnsafeRawBufferPointer(rebasing: rest.prefix(wanted.count)),
                            lowercased: UnsafeRawBufferPointer(wanted))
                    {
                        return true
                    }
                    guard let end = ASCIIBytes.firstIndex(of: UInt8(ascii: "\n"), in: rest) else { return false }
                    start += end + 1
                }
                return false
            }
        }
    }

    /// The fields, parsed on the first read.
    package var fields: HTTPFields {
        parsed.withLock { cached in
            if let cached { return cached }
            let fields = lines.withUnsafeBytes(parse)
            cached = fields
            return fields
        }
    }
}
