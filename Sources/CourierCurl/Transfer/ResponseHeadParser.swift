import Courier
import HTTPTypes

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Checks the header lines curl hands over, one call per line, and keeps the final head's field
/// lines for parsing when they are first read: a pure state machine, with no curl and no I/O,
/// tested on its own.
///
/// Every check that can fail a response runs here, as each line arrives: the status line, each
/// field name (an RFC 9110 token, as swift-http-types requires), the limits and the framing. Only
/// turning the lines into `HTTPFields` waits (``ReceivedHeaderLines``): on the I/O thread it cost
/// more than the rest of a small response's handling, for fields most callers never read.
///
/// Interim (1xx) responses other than `101 Switching Protocols` are dropped, and so are their
/// header lines; every byte of every head counts against `maxHeaderBytes`, so a server cannot
/// stream interim responses forever.
struct ResponseHeadParser {
    /// A complete, final response head.
    struct Head: Equatable {
        var status: HTTPResponse.Status
        /// What the framing fields say; found by a scan when not given.
        var framing: HeadFraming
        private var storage: Storage

        /// The fields as parsed, or the checked lines they are parsed from when first read.
        private enum Storage {
            case fields(HTTPFields)
            case lines([UInt8])
        }

        init(status: HTTPResponse.Status, fields: HTTPFields, framing: HeadFraming? = nil) {
            self.status = status
            self.storage = .fields(fields)
            self.framing = framing ?? HeadFraming(of: fields)
        }

        /// A head whose fields are `lines` as ``ResponseHeadParser/fields(in:)`` reads them.
        init(status: HTTPResponse.Status, lines: [UInt8], framing: HeadFraming) {
            self.status = status
            self.storage = .lines(lines)
            self.framing = framing
        }

        /// The fields; a head kept as lines parses them on every read, so read once and keep them.
        var fields: HTTPFields {
            get {
                switch storage {
                case .fields(let fields): fields
                case .lines(let lines): lines.withUnsafeBytes(ResponseHeadParser.fields(in:))
                }
            }
            set { storage = .fields(newValue) }
        }

        /// The response `send` returns for this head: with its lines unparsed when the head kept them.
        func response(bodyStream: ResponseBodyStream, request: Request) -> Response {
            switch storage {
            case .fields(let fields):
                Response(status: status, headerFields: fields, bodyStream: bodyStream, request: request)
            case .lines(let lines):
                Response(
                    status: status,
                    receivedHeaderLines: ReceivedHeaderLines(lines: lines, parse: ResponseHeadParser.fields(in:)),
                    bodyStream: bodyStream, request: request)
            }
        }

        static func == (left: Head, right: Head) -> Bool {
            left.status == right.status && left.framing == right.framing && left.fields == right.fields
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
    /// Room for this many fields is made when lines are parsed: most responses have fewer.
    private static let usualFieldCount = 16
    /// Room for this many bytes of field lines is made at the first: most heads need less.
    private static let usualLineBytes = 512
    private static let lineFeed = UInt8(ascii: "\n")
    private var receivedBytes = 0
    private var status: HTTPResponse.Status?
    /// The head's field lines so far, as ``ReceivedHeaderLines`` keeps them; handed over when the head is complete.
    private var lines: [UInt8] = []
    /// How many fields `lines` holds; continuation lines are not fields.
    private var fieldCount = 0
    /// The framing fields among `lines`, noted as they arrive.
    private var framing = HeadFraming()
    /// Whether a continuation line changed a value after `framing` noted it: then the fields are scanned at the end.
    private var sawFoldedLine = false

    init(limits: Limits) {
        maxHeaderBytes = limits.maxHeaderBytes
        maxHeaderCount = limits.maxHeaderCount
    }

    /// Takes one line as curl passes it: the status line, a header line, or the empty line, with its line end.
    mutating func consume(_ line: [UInt8]) -> Outcome {
        line.withUnsafeBytes { consume($0) }
    }

    /// Takes one line in curl's own buffer, read in place: a field line is copied once, into `lines`.
    mutating func consume(_ line: UnsafeRawBufferPointer) -> Outcome {
        receivedBytes += line.count
        guard receivedBytes <= maxHeaderBytes else {
            return .failed(
                code: .limitExceeded,
                message: "the response head is larger than the limit of \(maxHeaderBytes) bytes")
        }
        var end = line.count
        while end > 0, line[end - 1] == Self.lineFeed || line[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        let bytes = UnsafeRawBufferPointer(rebasing: line[..<end])

        guard let current = status else {
            if bytes.isEmpty { return .needMore }
            return parseStatusLine(bytes)
        }
        if bytes.isEmpty {
            if current.kind == .informational, current.code != 101 {
                status = nil
                lines.removeAll(keepingCapacity: true)
                forgetFields()
                return .needMore
            }
            return complete(current)
        }
        if bytes[0] == UInt8(ascii: " ") || bytes[0] == UInt8(ascii: "\t") {
            guard fieldCount > 0 else {
                return .failed(code: .invalidResponse, message: "the response head starts with a folded line")
            }
            keep(bytes)
            sawFoldedLine = true
            return .needMore
        }
        return takeField(bytes)
    }

    /// The final head: its lines kept for parsing on first read, unless a folded line or unusual
    /// framing means the fields must be looked at now.
    private mutating func complete(_ current: HTTPResponse.Status) -> Outcome {
        let complete = lines
        lines = []  // The head owns its lines alone: no copy when the next head (a retry's) starts.
        defer { forgetFields() }
        guard sawFoldedLine || !framing.isPlain else {
            return .complete(Head(status: current, lines: complete, framing: framing))
        }
        let fields = complete.withUnsafeBytes(Self.fields(in:))
        let facts = sawFoldedLine ? HeadFraming(of: fields) : framing
        if !facts.isPlain, let problem = fields.framingProblem {
            return .failed(code: .invalidResponse, message: problem)
        }
        return .complete(Head(status: current, fields: fields, framing: facts))
    }

    /// Forgets what the fields of the head just ended said, for the next head.
    private mutating func forgetFields() {
        fieldCount = 0
        framing = HeadFraming()
        sawFoldedLine = false
    }

    /// `HTTP/x.y NNN reason`: the version's prefix, three digits, and an optional reason phrase.
    private mutating func parseStatusLine(_ bytes: UnsafeRawBufferPointer) -> Outcome {
        let space = UInt8(ascii: " ")
        let isDigit: (UInt8) -> Bool = { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
        guard let firstSpace = Self.index(of: space, in: bytes), firstSpace >= 5,
            memcmp(bytes.baseAddress!, "HTTP/", 5) == 0,
            bytes.count >= firstSpace + 4, bytes[(firstSpace + 1)...(firstSpace + 3)].allSatisfy(isDigit),
            bytes.count == firstSpace + 4 || bytes[firstSpace + 4] == space
        else {
            let text = TerminalSafeText.escaping(
                String(decoding: bytes.prefix(80), as: UTF8.self), keepingLineBreaks: false)
            return .failed(
                code: .invalidResponse, message: "the response does not start with a valid status line: \(text)")
        }
        let digit = { (offset: Int) in Int(bytes[firstSpace + offset] - UInt8(ascii: "0")) }
        let code = digit(1) * 100 + digit(2) * 10 + digit(3)
        guard code >= 100 else {
            let text = TerminalSafeText.escaping(
                String(decoding: bytes.prefix(80), as: UTF8.self), keepingLineBreaks: false)
            return .failed(
                code: .invalidResponse, message: "the response does not start with a valid status line: \(text)")
        }
        let reason = bytes.count > firstSpace + 5 ? String(decoding: bytes[(firstSpace + 5)...], as: UTF8.self) : ""
        status = HTTPResponse.Status(code: code, reasonPhrase: reason)
        return .needMore
    }

    /// Checks a field line and keeps it: its name must be a token, and the fields must stay within the limit.
    private mutating func takeField(_ bytes: UnsafeRawBufferPointer) -> Outcome {
        guard let colon = Self.index(of: UInt8(ascii: ":"), in: bytes) else { return Self.invalidLine(bytes) }
        let name = UnsafeRawBufferPointer(rebasing: bytes[..<colon])
        guard HTTPToken.isToken(name) else { return Self.invalidLine(bytes) }
        guard fieldCount < maxHeaderCount else {
            return .failed(
                code: .limitExceeded,
                message: "the response has more than the limit of \(maxHeaderCount) header lines")
        }
        fieldCount += 1
        framing.note(
            name: name, value: UnsafeRawBufferPointer(rebasing: bytes[Self.trimmedRange(bytes, from: colon + 1)]))
        keep(bytes)
        return .needMore
    }

    /// Appends a checked line to `lines`, ended by a line feed (a line from curl holds none inside).
    private mutating func keep(_ bytes: UnsafeRawBufferPointer) {
        if lines.isEmpty { lines.reserveCapacity(Self.usualLineBytes) }
        lines.append(contentsOf: bytes)
        lines.append(Self.lineFeed)
    }

    /// The fields of `lines` as the parser keeps them: checked field lines, each ended by a line
    /// feed, a continuation line joining the value before it with one space.
    static func fields(in lines: UnsafeRawBufferPointer) -> HTTPFields {
        var fields = HTTPFields()
        fields.reserveCapacity(usualFieldCount)
        var folded: [UInt8]?
        var start = 0
        while start < lines.count {
            let end =
                start
                + (index(of: lineFeed, in: UnsafeRawBufferPointer(rebasing: lines[start...])) ?? lines.count - start)
            let line = UnsafeRawBufferPointer(rebasing: lines[start..<end])
            start = end + 1
            if let first = line.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") {
                guard let last = fields.last else { continue }
                folded = (folded ?? Array(last.value.utf8)) + [UInt8(ascii: " ")] + trimmed(line)
                continue
            }
            joinFolded(&folded, into: &fields)
            guard let colon = index(of: UInt8(ascii: ":"), in: line) else { continue }
            let nameBytes = UnsafeRawBufferPointer(rebasing: line[..<colon])
            // Never nil: `takeField` kept only token names, which swift-http-types accepts (a test pins it).
            guard
                let name = FieldNameTable.common.name(spelledAs: nameBytes)
                    ?? HTTPField.Name(String(decoding: nameBytes, as: UTF8.self))
            else { continue }
            let value = UnsafeRawBufferPointer(rebasing: line[trimmedRange(line, from: colon + 1)])
            // Not `append`: its default goes through `insert(_:at:)`, several times the cost.
            fields.replaceSubrange(fields.endIndex..<fields.endIndex, with: CollectionOfOne(field(name, value)))
        }
        joinFolded(&folded, into: &fields)
        return fields
    }

    private static func invalidLine(_ bytes: UnsafeRawBufferPointer) -> Outcome {
        let text = TerminalSafeText.escaping(
            String(decoding: bytes.prefix(80), as: UTF8.self), keepingLineBreaks: false)
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

    /// The first index of `byte` in `bytes`, found with `memchr`: `ASCIIBytes.firstIndex`, kept
    /// here so that it inlines into the per-line parse (see `ASCIIBytes`).
    private static func index(of byte: UInt8, in bytes: UnsafeRawBufferPointer) -> Int? {
        guard let base = bytes.baseAddress, let found = memchr(base, Int32(byte), bytes.count) else { return nil }
        return base.distance(to: UnsafeRawPointer(found))
    }

    /// Continuation lines (obsolete line folding) join the last field's value once it is complete.
    private static func joinFolded(_ folded: inout [UInt8]?, into fields: inout HTTPFields) {
        guard let value = folded else { return }
        folded = nil
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
