import Courier
import Foundation
import HTTPTypes
import Testing

@testable import CourierCurl

@Suite("ResponseHeadParser")
struct ResponseHeadParserTests {
    private func parse(_ lines: [String], limits: Limits = Limits()) -> ResponseHeadParser.Outcome {
        var parser = ResponseHeadParser(limits: limits)
        var outcome = ResponseHeadParser.Outcome.needMore
        for line in lines {
            outcome = parser.consume(Array(line.utf8))
            if case .needMore = outcome { continue }
            return outcome
        }
        return outcome
    }

    private func head(_ outcome: ResponseHeadParser.Outcome) -> ResponseHeadParser.Head? {
        if case .complete(let head) = outcome { return head }
        return nil
    }

    @Test func aFinalHeadKeepsStatusReasonAndFieldsInOrder() {
        let result = head(parse(["HTTP/1.1 201 Created\r\n", "B: 2\r\n", "a:1\r\n", "B:  3 \r\n", "\r\n"]))
        #expect(result?.status.code == 201)
        #expect(result?.status.reasonPhrase == "Created")
        #expect(result?.fields.map { "\($0.name.rawName)=\($0.value)" } == ["B=2", "a=1", "B=3"])
    }

    /// Common names take a prepared `HTTPField.Name`, but only when spelled exactly as prepared:
    /// every name keeps the casing the server sent, and compares equal to the standard name.
    @Test(arguments: ["Content-Type", "content-type", "CONTENT-TYPE", "Content-type"])
    func aCommonNameKeepsTheSpellingItArrivedIn(spelling: String) {
        let result = head(
            parse([
                "HTTP/1.1 200 OK\r\n", "\(spelling): text/plain\r\n", "Date: today\r\n",
                "x-custom: 1\r\n", "\r\n",
            ]))
        #expect(result?.fields.map(\.name.rawName) == [spelling, "Date", "x-custom"])
        #expect(result?.fields[.contentType] == "text/plain")
        #expect(result?.fields[.date] == "today")
    }

    /// ASCII values take a fast path; every value must come out as swift-http-types makes it from
    /// the same bytes: obs-text (bytes 0x80–0xFF) and UTF-8 kept byte for byte, a control
    /// character turned into a space.
    @Test func valuesEqualWhatSwiftHTTPTypesMakesOfTheSameBytes() {
        let values: [[UInt8]] = [
            Array("plain ascii".utf8), Array("caf\u{E9}".utf8), [0x6F, 0x62, 0x73, 0xE9, 0x74, 0x65, 0x78, 0x74],
            [0x61, 0x01, 0x62], [0x61, 0x7F, 0x62], Array("\"quoted\" ; q=0.5".utf8),
        ]
        for value in values {
            var parser = ResponseHeadParser(limits: Limits())
            _ = parser.consume(Array("HTTP/1.1 200 OK\r\n".utf8))
            _ = parser.consume(Array("X-Value: ".utf8) + value + Array("\r\n".utf8))
            guard case .complete(let head) = parser.consume(Array("\r\n".utf8)) else {
                Issue.record("no head for \(value)")
                continue
            }
            let expected = HTTPField(name: HTTPField.Name("X-Value")!, value: value)
            #expect(head.fields.first?.value == expected.value, "\(value)")
            #expect(head.fields.first.map { Array($0.value.utf8) } == Array(expected.value.utf8), "\(value)")
        }
    }

    /// The ASCII check reads eight bytes at a time, then the tail one by one: a high byte is found
    /// at every position of every length around those boundaries.
    @Test func aByteAbove127IsFoundAtEveryPositionAndLength() {
        for length in 0...17 {
            let plain = [UInt8](repeating: UInt8(ascii: "a"), count: length)
            #expect(plain.withUnsafeBytes { ResponseHeadParser.isASCII($0) })
            for position in 0..<length {
                var high = plain
                high[position] = 0xC3
                #expect(!high.withUnsafeBytes { ResponseHeadParser.isASCII($0) }, "length \(length), at \(position)")
            }
        }
    }

    @Test func interimResponsesAreSkipped() {
        let result = head(
            parse([
                "HTTP/1.1 100 Continue\r\n", "\r\n", "HTTP/1.1 103 Early Hints\r\n", "Link: </a>\r\n", "\r\n",
                "HTTP/1.1 200 OK\r\n", "X: y\r\n", "\r\n",
            ]))
        #expect(result?.status == .ok)
        #expect(result?.fields.count == 1)
    }

    @Test func switchingProtocolsIsFinal() {
        #expect(head(parse(["HTTP/1.1 101 Switching Protocols\r\n", "\r\n"]))?.status.code == 101)
    }

    @Test func anHTTP2StatusLineWithoutReasonIsAccepted() {
        #expect(head(parse(["HTTP/2 204 \r\n", "\r\n"]))?.status.code == 204)
    }

    @Test func foldedLinesJoinThePreviousValue() {
        let result = head(
            parse(["HTTP/1.1 200 OK\r\n", "X-Long: one\r\n", "  two\r\n", "\tthree\r\n", "Y: z\r\n", "\r\n"]))
        #expect(result?.fields[HTTPField.Name("X-Long")!] == "one two three")
        #expect(result?.fields[HTTPField.Name("Y")!] == "z")
    }

    @Test(arguments: [
        "SSH-2.0-OpenSSH\r\n", "HTTP/1.1 2000 OK\r\n", "HTTP/1.1 abc OK\r\n", "HTTP/1.1 099 Low\r\n", "HTTP/1.1\r\n",
    ])
    func aBadStatusLineIsAnInvalidResponse(line: String) {
        guard case .failed(let code, _) = parse([line]) else {
            Issue.record("expected a failure")
            return
        }
        #expect(code == .invalidResponse)
    }

    @Test(arguments: ["no colon here\r\n", "Bad Name: x\r\n", ": empty name\r\n"])
    func aBadHeaderLineIsAnInvalidResponse(line: String) {
        guard case .failed(let code, _) = parse(["HTTP/1.1 200 OK\r\n", line]) else {
            Issue.record("expected a failure")
            return
        }
        #expect(code == .invalidResponse)
    }

    @Test func theHeaderCountLimitIsExactAtItsBoundary() {
        var limits = Limits()
        limits.maxHeaderCount = 3
        let three = ["HTTP/1.1 200 OK\r\n", "A: 1\r\n", "B: 2\r\n", "C: 3\r\n"]
        #expect(head(parse(three + ["\r\n"], limits: limits)) != nil)
        guard case .failed(let code, _) = parse(three + ["D: 4\r\n", "\r\n"], limits: limits) else {
            Issue.record("expected a failure")
            return
        }
        #expect(code == .limitExceeded)
    }

    @Test func theHeaderBytesLimitIsExactAtItsBoundaryAndCountsInterimHeads() {
        let lines = ["HTTP/1.1 200 OK\r\n", "A: 1\r\n", "\r\n"]
        let size = lines.reduce(0) { $0 + $1.utf8.count }
        var limits = Limits()
        limits.maxHeaderBytes = size
        #expect(head(parse(lines, limits: limits)) != nil)
        limits.maxHeaderBytes = size - 1
        guard case .failed(let code, _) = parse(lines, limits: limits) else {
            Issue.record("expected a failure")
            return
        }
        #expect(code == .limitExceeded)
        limits.maxHeaderBytes = size
        guard case .failed(.limitExceeded, _) = parse(["HTTP/1.1 100 Continue\r\n", "\r\n"] + lines, limits: limits)
        else {
            Issue.record("expected the interim head to count")
            return
        }
    }

    /// The parser checks names on bytes and builds them only when the fields are read: it must
    /// accept exactly the names swift-http-types accepts, or a kept line could not be parsed.
    @Test func aFieldNameIsAcceptedExactlyWhenSwiftHTTPTypesAcceptsIt() {
        #expect(!HTTPToken.isToken(UnsafeRawBufferPointer(start: nil, count: 0)))
        #expect(!HTTPToken.isToken(""))
        for byte in UInt8.min...UInt8.max {
            for name in [[byte], [UInt8(ascii: "X"), byte], [byte, UInt8(ascii: "y"), UInt8(ascii: "Z")]] {
                let accepted = HTTPField.Name(String(decoding: name, as: UTF8.self)) != nil
                #expect(name.withUnsafeBytes { HTTPToken.isToken($0) } == accepted, "\(name)")
                #expect(HTTPToken.isToken(String(decoding: name, as: UTF8.self)) == accepted, "\(name)")
            }
        }
    }

    /// A plain head keeps its lines: the response made from it parses them when its fields are
    /// first read, to the same fields in the same order, with the same spellings.
    @Test func theResponseOfAHeadReadsTheSameFieldsAsTheHead() throws {
        let result = try #require(
            head(
                parse([
                    "HTTP/1.1 200 OK\r\n", "Server: nginx\r\n", "content-type: text/plain\r\n",
                    "Content-Length: 2\r\n", "X-Odd:  spaced out \r\n", "X-Empty:\r\n", "\r\n",
                ])))
        #expect(result.framing.contentLength == 2)
        let response = result.response(
            bodyStream: ResponseBodyStream(Data("ok".utf8)),
            request: Request(url: URL(string: "http://127.0.0.1/")!))
        #expect(response.headerFields == result.fields)
        #expect(
            response.headerFields.map { "\($0.name.rawName)=\($0.value)" } == [
                "Server=nginx", "content-type=text/plain", "Content-Length=2", "X-Odd=spaced out", "X-Empty=",
            ])
    }

    /// A folded line or several lengths mean the fields are read before the head completes; the
    /// verdicts are those of `framingProblem`.
    @Test func conflictingOrFoldedLengthsAreInvalidResponses() {
        let conflicting = ["HTTP/1.1 200 OK\r\n", "Content-Length: 2\r\n", "Content-Length: 3\r\n", "\r\n"]
        let folded = ["HTTP/1.1 200 OK\r\n", "Content-Length: 1\r\n", " 2\r\n", "\r\n"]
        for lines in [conflicting, folded] {
            guard case .failed(.invalidResponse, _) = parse(lines) else {
                Issue.record("expected \(lines) to fail")
                continue
            }
        }
        #expect(head(parse(["HTTP/1.1 200 OK\r\n", "Content-Length: 2\r\n", "Content-Length: 2\r\n", "\r\n"])) != nil)
    }
}
