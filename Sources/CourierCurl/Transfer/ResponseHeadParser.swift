import Courier
import HTTPTypes

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns the header lines curl hands over, one call per line, into the final response head:
/// a pure state machine, with no curl and no I/O, tested on its own.
///
/// Interim (1xx) responses other than `101 Switching Protocols` are dropped, and so are their
/// header lines; every byte of every head counts against `maxHeaderBytes`, so a server cannot
/// stream interim responses forever.
struct ResponseHeadParser {
    /// A complete, final response head.
    struct Head: Equatable {
        var status: HTTPResponse.Status
        var fields: HTTPFields
        /// What the framing fields say; found by a scan when not given.
        var framing: HeadFraming

        init(status: HTTPResponse.Status, fields: HTTPFields, framing: HeadFraming? = nil) {
            self.status = status
            self.fields = fields
            self.framing = framing ?? HeadFraming(of: fields)
        }
    }

    enum Outcome: Equatable {
        /// The line was taken; the head is not complete yet.
        case needMore
        /// The line ended the final head.
        case complete(Head)
        /// The head is invalid or too large; the transfer must be aborted with this error.
        case failed(code: CourierError.Code, message: String)
    }

    let maxHeaderBytes: Int
    let maxHeaderCount: Int
    /// Room for this many fields is made at the first: most responses have fewer.
    private static let usualFieldCount = 16
    private var receivedBytes = 0
    private var status: HTTPResponse.Status?
    /// The head's fields so far, handed over as they are when the head is complete.
    private var fields = HTTPFields()
    /// The framing fields of `fields`, noted as they are parsed.
    private var framing = HeadFraming()
    private var foldedValue: [UInt8]?
    /// Whether a folded line changed a value after `framing` noted it: then the fields are scanned at the end.
    private var sawFoldedLine = false

    init(limits: Limits) {
        maxHeaderBytes = limits.maxHeaderBytes
        maxHeaderCount = limits.maxHeaderCount
    }

    /// Takes one line as curl passes it: the status line, a header line, or the empty line, with its line end.
    mutating func consume(_ line: [UInt8]) -> Outcome {
        line.withUnsafeBytes { consume($0) }
    }

    /// Takes one line in curl's own buffer, read in place: no copy of the line is made, only the
    /// name and value strings of a field.
    mutating func consume(_ line: UnsafeRawBufferPointer) -> Outcome {
        receivedBytes += line.count
        guard receivedBytes <= maxHeaderBytes else {
            return .failed(
                code: .limitExceeded,
                message: "the response head is larger than the limit of \(maxHeaderBytes) bytes")
        }
        var end = line.count
        while end > 0, line[end - 1] == UInt8(ascii: "\n") || line[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        let bytes = UnsafeRawBufferPointer(rebasing: line[..<end])

        guard let current = status else {
            if bytes.isEmpty { return .needMore }
            return parseStatusLine(bytes)
        }
        if bytes.isEmpty {
            flushFoldedValue()
            if current.kind == .informational, current.code != 101 {
                status = nil
                fields.removeAll(keepingCapacity: true)
                framing = HeadFraming()
                sawFoldedLine = false
                return .needMore
            }
            let complete = fields
            fields = HTTPFields()  // The head owns its storage alone: no copy when the caller edits it.
            let facts = sawFoldedLine ? HeadFraming(of: complete) : framing
            framing = HeadFraming()
            sawFoldedLine = false
            if !facts.isPlain, let problem = complete.framingProblem {
                return .failed(code: .invalidResponse, message: problem)
            }
            return .complete(Head(status: current, fields: complete, framing: facts))
        }
        if bytes[0] == UInt8(ascii: " ") || bytes[0] == UInt8(ascii: "\t") {
            guard let last = fields.last else {
                return .failed(code: .invalidResponse, message: "the response head starts with a folded line")
            }
            foldedValue = (foldedValue ?? Array(last.value.utf8)) + [UInt8(ascii: " ")] + Self.trimmed(bytes)
            sawFoldedLine = true
            return .needMore
        }
        flushFoldedValue()
        return parseField(bytes)
    }

    /// `HTTP/x.y NNN reason`: the version's prefix, three digits, and an optional reason phrase.
    private mutating func parseStatusLine(_ bytes: UnsafeRawBufferPointer) -> Outcome {
        let space = UInt8(ascii: " ")
        let isDigit: (UInt8) -> Bool = { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
        guard let firstSpace = bytes.firstIndex(of: space), bytes[..<firstSpace].starts(with: "HTTP/".utf8),
            bytes.count >= firstSpace + 4, bytes[(firstSpace + 1)...(firstSpace + 3)].allSatisfy(isDigit),
            bytes.count == firstSpace + 4 || bytes[firstSpace + 4] == space
        else {
            let text = String(decoding: bytes.prefix(80), as: UTF8.self)
            return .failed(
                code: .invalidResponse, message: "the response does not start with a valid status line: \(text)")
        }
        let digit = { (offset: Int) in Int(bytes[firstSpace + offset] - UInt8(ascii: "0")) }
        let code = digit(1) * 100 + digit(2) * 10 + digit(3)
        guard code >= 100 else {
            let text = String(decoding: bytes.prefix(80), as: UTF8.self)
            return .failed(
                code: .invalidResponse, message: "the response does not start with a valid status line: \(text)")
        }
        let reason = bytes.count > firstSpace + 5 ? String(decoding: bytes[(firstSpace + 5)...], as: UTF8.self) : ""
        status = HTTPResponse.Status(code: code, reasonPhrase: reason)
        return .needMore
    }

    private mutating func parseField(_ bytes: UnsafeRawBufferPointer) -> Outcome {
        guard let colon = Self.index(of: UInt8(ascii: ":"), in: bytes) else { return Self.invalidLine(bytes) }
        let nameBytes = UnsafeRawBufferPointer(rebasing: bytes[..<colon])
        guard
            let name = CommonFieldNames.name(spelledAs: nameBytes)
                ?? HTTPField.Name(String(decoding: nameBytes, as: UTF8.self))
        else { return Self.invalidLine(bytes) }
        guard fields.count < maxHeaderCount else {
            return .failed(
                code: .limitExceeded,
                message: "the response has more than the limit of \(maxHeaderCount) header lines")
        }
        // One allocation for a usual head rather than one per doubling.
        if fields.isEmpty { fields.reserveCapacity(Self.usualFieldCount) }
        let value = UnsafeRawBufferPointer(rebasing: bytes[Self.trimmedRange(bytes, from: colon + 1)])
        framing.note(name: nameBytes, value: value)
        fields.append(Self.field(name, value))
        return .needMore
    }

    private static func invalidLine(_ bytes: UnsafeRawBufferPointer) -> Outcome {
        let text = String(decoding: bytes.prefix(80), as: UTF8.self)
        return .failed(code: .invalidResponse, message: "the response has an invalid header line: \(text)")
    }

    /// The field as swift-http-types makes it from bytes. An ASCII value, nearly every one, is
    /// made a `String` here first: the bytes initializer validates UTF-8 through the standard
    /// library's generic `String(validating:as:)`, which looks up type metadata on every call.
    private static func field(_ name: HTTPField.Name, _ value: UnsafeRawBufferPointer) -> HTTPField {
        guard isASCII(value) else { return HTTPField(name: name, value: value) }
        return HTTPField(name: name, value: String(decoding: value, as: UTF8.self))
    }

    /// Whether every byte is below 0x80, checked eight bytes at a time: header values are read
    /// for every response, on the I/O thread when many transfers share it.
    static func isASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let highBits: UInt64 = 0x8080_8080_8080_8080
        var offset = 0
        while offset + 8 <= bytes.count {
            guard base.loadUnaligned(fromByteOffset: offset, as: UInt64.self) & highBits == 0 else { return false }
            offset += 8
        }
        while offset < bytes.count {
            guard base.load(fromByteOffset: offset, as: UInt8.self) < 0x80 else { return false }
            offset += 1
        }
        return true
    }

    /// The first index of `byte` in `bytes`, found with `memchr`.
    private static func index(of byte: UInt8, in bytes: UnsafeRawBufferPointer) -> Int? {
        guard let base = bytes.baseAddress, let found = memchr(base, Int32(byte), bytes.count) else { return nil }
        return base.distance(to: UnsafeRawPointer(found))
    }

    /// Continuation lines (obsolete line folding) join the last field's value once it is complete.
    private mutating func flushFoldedValue() {
        guard let value = foldedValue else { return }
        foldedValue = nil
        guard let last = fields.indices.last else { return }
        fields[last] = HTTPField(name: fields[last].name, value: value)
    }

    /// The bounds of `bytes[start...]` without spaces and tabs at either end.
    private static func trimmedRange(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Range<Int> {
        let isSpace: (UInt8) -> Bool = { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        var lower = start
        var upper = bytes.count
        while lower < upper, isSpace(bytes[lower]) { lower += 1 }
        while upper > lower, isSpace(bytes[upper - 1]) { upper -= 1 }
        return lower..<upper
    }

    private static func trimmed(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
        Array(bytes[trimmedRange(bytes, from: 0)])
    }
}
