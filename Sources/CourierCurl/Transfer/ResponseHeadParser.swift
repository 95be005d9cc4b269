import Courier
import HTTPTypes

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
    private var receivedBytes = 0
    private var status: HTTPResponse.Status?
    private var fields = HTTPFields()
    private var foldedValue: [UInt8]?

    init(limits: Limits) {
        maxHeaderBytes = limits.maxHeaderBytes
        maxHeaderCount = limits.maxHeaderCount
    }

    /// Takes one line as curl passes it: the status line, a header line, or the empty line, with its line end.
    mutating func consume(_ line: some Collection<UInt8>) -> Outcome {
        receivedBytes += line.count
        guard receivedBytes <= maxHeaderBytes else {
            return .failed(code: .limitExceeded,
                           message: "the response head is larger than the limit of \(maxHeaderBytes) bytes")
        }
        var bytes = Array(line)
        while let last = bytes.last, last == UInt8(ascii: "\n") || last == UInt8(ascii: "\r") { bytes.removeLast() }

        guard let current = status else {
            if bytes.isEmpty { return .needMore }
            return parseStatusLine(bytes)
        }
        if bytes.isEmpty {
            flushFoldedValue()
            if current.kind == .informational, current.code != 101 {
                status = nil
                fields = HTTPFields()
                return .needMore
            }
            if let problem = fields.framingProblem {
                return .failed(code: .invalidResponse, message: problem)
            }
            return .complete(Head(status: current, fields: fields))
        }
        if bytes.first == UInt8(ascii: " ") || bytes.first == UInt8(ascii: "\t") {
            guard let last = fields.last else {
                return .failed(code: .invalidResponse, message: "the response head starts with a folded line")
            }
            foldedValue = (foldedValue ?? Array(last.value.utf8)) + [UInt8(ascii: " ")] + trimmed(bytes[...])
            return .needMore
        }
        flushFoldedValue()
        return parseField(bytes)
    }

    private mutating func parseStatusLine(_ bytes: [UInt8]) -> Outcome {
        let parts = bytes.split(separator: UInt8(ascii: " "), maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0].starts(with: Array("HTTP/".utf8)),
              parts[1].count == 3, parts[1].allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
              let code = Int(String(decoding: parts[1], as: UTF8.self)), code >= 100
        else {
            let text = String(decoding: bytes.prefix(80), as: UTF8.self)
            return .failed(code: .invalidResponse, message: "the response does not start with a valid status line: \(text)")
        }
        let reason = parts.count > 2 ? String(decoding: parts[2], as: UTF8.self) : ""
        status = HTTPResponse.Status(code: code, reasonPhrase: reason)
        return .needMore
    }

    private mutating func parseField(_ bytes: [UInt8]) -> Outcome {
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")),
              let name = HTTPField.Name(String(decoding: bytes[..<colon], as: UTF8.self))
        else {
            let text = String(decoding: bytes.prefix(80), as: UTF8.self)
            return .failed(code: .invalidResponse, message: "the response has an invalid header line: \(text)")
        }
        guard fields.count < maxHeaderCount else {
            return .failed(code: .limitExceeded,
                           message: "the response has more than the limit of \(maxHeaderCount) header lines")
        }
        fields.append(HTTPField(name: name, value: trimmed(bytes[(colon + 1)...])))
        return .needMore
    }

    /// Continuation lines (obsolete line folding) join the last field's value once it is complete.
    private mutating func flushFoldedValue() {
        guard let value = foldedValue else { return }
        foldedValue = nil
        guard let last = fields.indices.last else { return }
        fields[last] = HTTPField(name: fields[last].name, value: value)
    }

    private func trimmed(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        let isSpace: (UInt8) -> Bool = { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        guard let start = bytes.firstIndex(where: { !isSpace($0) }),
              let end = bytes.lastIndex(where: { !isSpace($0) })
        else { return [] }
        return Array(bytes[start...end])
    }
}
