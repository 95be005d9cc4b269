import Courier
import HTTPTypes
import Testing

@testable import CourierCurl

/// The framing facts the head parser notes line by line: the head fails exactly when
/// `HTTPFields.framingProblem` says so, and what it hands over equals a scan of its fields.
@Suite("HeadFraming")
struct HeadFramingTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var lines: [String]
        /// `nil` when the head must fail as ambiguously framed.
        var contentLength: Int64??
        var contentEncoding = false
        var transferEncoding = false

        var testDescription: String { lines.joined(separator: " | ") }
    }

    static let cases: [Case] = [
        Case(lines: [], contentLength: .some(nil)),
        Case(lines: ["Content-Length: 10"], contentLength: 10),
        Case(lines: ["content-length:   7  "], contentLength: 7),
        Case(lines: ["Transfer-Encoding: chunked"], contentLength: .some(nil), transferEncoding: true),
        Case(lines: ["Content-Length: 10", "Transfer-Encoding: chunked"], contentLength: nil),
        Case(lines: ["TRANSFER-ENCODING: chunked", "content-LENGTH: 10"], contentLength: nil),
        Case(lines: ["Content-Length: 10", "Content-Length: 10"], contentLength: .some(nil)),
        Case(lines: ["Content-Length: 10", "CONTENT-LENGTH: 11"], contentLength: nil),
        Case(lines: ["Content-Length: 10, 10"], contentLength: .some(nil)),
        Case(lines: ["Content-Length: 10, 11"], contentLength: nil),
        Case(lines: ["Content-Length: -1"], contentLength: nil),
        Case(lines: ["Content-Length: +1"], contentLength: nil),
        // As framingProblem has it: an empty value gives no number to disagree with.
        Case(lines: ["Content-Length: "], contentLength: .some(nil)),
        Case(lines: ["Content-Length: 99999999999999999999"], contentLength: .some(nil)),
        Case(lines: ["Content-Length: 1", " 0"], contentLength: nil),
        Case(lines: ["Content-Encoding: gzip", "Content-Length: 5"], contentLength: 5, contentEncoding: true),
        Case(lines: ["X-Content-Length: 5", "Content-Lengths: 6", "Content-Encodin: x"], contentLength: .some(nil)),
    ]

    @Test(arguments: cases)
    func theNotedFactsAgreeWithAScanAndTheFramingCheck(_ testCase: Case) {
        var parser = ResponseHeadParser(limits: Limits())
        var outcome = parser.consume(Array("HTTP/1.1 200 OK\r\n".utf8))
        for line in testCase.lines + [""] {
            outcome = parser.consume(Array((line + "\r\n").utf8))
        }
        switch (outcome, testCase.contentLength) {
        case (.failed(let code, _), nil):
            #expect(code == .invalidResponse)
        case (.complete(let head), .some(let length)):
            #expect(head.fields.framingProblem == nil)
            #expect(head.framing == HeadFraming(of: head.fields))
            #expect(head.framing.contentLength == length)
            #expect(head.framing.hasContentEncoding == testCase.contentEncoding)
            #expect(head.framing.hasTransferEncoding == testCase.transferEncoding)
        default:
            Issue.record("unexpected outcome \(outcome)")
        }
    }

    @Test func anInterimHeadsFieldsAreForgotten() {
        var parser = ResponseHeadParser(limits: Limits())
        for line in [
            "HTTP/1.1 103 Early Hints", "Content-Length: 3", "", "HTTP/1.1 200 OK", "Transfer-Encoding: chunked",
        ] {
            _ = parser.consume(Array((line + "\r\n").utf8))
        }
        guard case .complete(let head) = parser.consume(Array("\r\n".utf8)) else {
            Issue.record("no final head")
            return
        }
        #expect(head.framing.contentLengthFields == 0)
        #expect(head.framing.hasTransferEncoding)
    }
}
