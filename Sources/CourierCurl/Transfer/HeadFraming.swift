import HTTPTypes

/// What a response head's framing fields say, noted line by line while the head is parsed.
///
/// The framing check at the head's end and the transfer's own decisions (decode the body? how
/// long is it?) then need no search of the fields: each search compares every field's name as a
/// string, which cost more than parsing the lines for a small response.
struct HeadFraming: Equatable {
    /// How many `Content-Length` fields the head has.
    var contentLengthFields = 0
    /// Whether the first `Content-Length` value is one or more ASCII digits and nothing else.
    var firstContentLengthIsPlain = false
    /// The first `Content-Length` value as a number, when it is plain and fits.
    var firstContentLength: Int64?
    /// Whether the head has a `Transfer-Encoding` field.
    var hasTransferEncoding = false
    /// Whether the head has a `Content-Encoding` field.
    var hasContentEncoding = false

    /// Nothing noted yet.
    init() {}

    /// The facts of `fields`, found by a scan: for a head the parser did not note line by line.
    init(of fields: HTTPFields) {
        for field in fields {
            Array(field.name.canonicalName.utf8).withUnsafeBytes { name in
                Array(field.value.utf8).withUnsafeBytes { value in note(name: name, value: value) }
            }
        }
    }

    /// Notes one field: its name as received, in any case, and its value without surrounding space.
    mutating func note(name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) {
        switch name.count {
        case 14 where Self.name(name, is: "content-length"):
            contentLengthFields += 1
            if contentLengthFields == 1 {
                firstContentLengthIsPlain = Self.isDecimal(value)
                firstContentLength = firstContentLengthIsPlain ? Int64(String(decoding: value, as: UTF8.self)) : nil
            }
        case 16 where Self.name(name, is: "content-encoding"):
            hasContentEncoding = true
        case 17 where Self.name(name, is: "transfer-encoding"):
            hasTransferEncoding = true
        default:
            break
        }
    }

    /// Forgets `Content-Encoding` and `Content-Length`, as the transfer does when it decodes the
    /// body: the decoded length is not the encoded one.
    mutating func forgetContentCoding() {
        hasContentEncoding = false
        contentLengthFields = 0
        firstContentLengthIsPlain = false
        firstContentLength = nil
    }

    /// Whether the framing is plainly unambiguous: no `Content-Length`, or one plain number and
    /// no `Transfer-Encoding`. Only otherwise must `HTTPFields.framingProblem` look at the fields.
    var isPlain: Bool {
        contentLengthFields == 0 || (contentLengthFields == 1 && firstContentLengthIsPlain && !hasTransferEncoding)
    }

    /// The body's length by the one `Content-Length`; `nil` without one, with several, or with one
    /// that is not a plain number.
    var contentLength: Int64? { contentLengthFields == 1 ? firstContentLength : nil }

    /// Whether `bytes`, a valid field name, is `lowercased` in any case. Setting bit 5 lowercases
    /// a letter and leaves `-` as it is; no other token character becomes a letter or `-` by it.
    /// `ASCIIBytes.equalIgnoringCase` for any name; this one stays here to inline (see `ASCIIBytes`).
    private static func name(_ bytes: UnsafeRawBufferPointer, is lowercased: StaticString) -> Bool {
        lowercased.withUTF8Buffer { expected in
            guard bytes.count == expected.count else { return false }
            for index in 0..<bytes.count where bytes[index] | 0x20 != expected[index] { return false }
            return true
        }
    }

    private static func isDecimal(_ bytes: UnsafeRawBufferPointer) -> Bool {
        !bytes.isEmpty && bytes.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }
}
