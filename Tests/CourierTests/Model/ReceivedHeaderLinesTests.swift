import Foundation
import HTTPTypes
import Synchronization
import Testing

@testable import Courier

@Suite("ReceivedHeaderLines")
struct ReceivedHeaderLinesTests {
    /// A parser that counts its calls and reads each line as `name:value`.
    private final class CountingParser: Sendable {
        private let count = Atomic(0)
        var calls: Int { count.load(ordering: .relaxed) }

        func parse(_ lines: UnsafeRawBufferPointer) -> HTTPFields {
            count.add(1, ordering: .relaxed)
            var fields = HTTPFields()
            for line in String(decoding: lines, as: UTF8.self).split(separator: "\n") {
                let parts = line.split(separator: ":", maxSplits: 1)
                fields.append(HTTPField(name: HTTPField.Name(String(parts[0]))!, value: String(parts[1])))
            }
            return fields
        }
    }

    private static let request = Request(method: .get, url: URL(string: "http://127.0.0.1/")!)

    @Test func theLinesAreParsedOnceHoweverManyTasksReadThemFirst() async {
        let parser = CountingParser()
        let lines = ReceivedHeaderLines(lines: Array("A:1\nB:2\n".utf8), parse: parser.parse)
        let read = await withTaskGroup(of: HTTPFields.self) { group in
            for _ in 0..<8 { group.addTask { lines.fields } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(Set(read.map { $0.map { $0.value } }) == [["1", "2"]])
        #expect(parser.calls == 1)
    }

    @Test func aResponseReadsItsReceivedLinesOnlyWhenItsFieldsAreRead() {
        let parser = CountingParser()
        let lines = ReceivedHeaderLines(lines: Array("Content-Type:text/plain\n".utf8), parse: parser.parse)
        let response = Response(
            status: .ok, receivedHeaderLines: lines, bodyStream: ResponseBodyStream(Data("hi".utf8)),
            request: Self.request)
        #expect(parser.calls == 0)
        #expect(response.contentType?.rawValue == "text/plain")
        #expect(response.headerFields[.contentType] == "text/plain")
        #expect(parser.calls == 1)
    }

    @Test func settingTheFieldsOfAResponseReplacesItsReceivedLines() {
        let parser = CountingParser()
        let lines = ReceivedHeaderLines(lines: Array("A:1\n".utf8), parse: parser.parse)
        var response = Response(
            status: .ok, receivedHeaderLines: lines, bodyStream: ResponseBodyStream(Data()), request: Self.request)
        let copy = response
        response.headerFields[HTTPField.Name("B")!] = "2"
        #expect(response.headerFields.map { $0.value } == ["1", "2"])
        #expect(copy.headerFields.map { $0.value } == ["1"])
        response.headerFields = [:]
        #expect(response.headerFields.isEmpty)
        #expect(copy.headerFields.map { $0.value } == ["1"])
    }

    @Test func whetherAFieldIsThereIsAnsweredWithoutParsingAndIgnoresCase() {
        let parser = CountingParser()
        let lines = ReceivedHeaderLines(
            lines: Array("content-type: text/plain\nX-Set-Cookie: a=1\nSET-COOKIE: b=2\n\tfolded\n".utf8),
            parse: parser.parse)
        #expect(lines.contains(.setCookie))
        #expect(lines.contains(.contentType))
        #expect(!lines.contains(.cookie))
        #expect(!lines.contains(HTTPField.Name("Set")!))
        #expect(!lines.contains(HTTPField.Name("folded")!))
        #expect(parser.calls == 0)
    }

    @Test func aFieldNameOnlyInsideAnotherLineIsNotThere() {
        let lines = ReceivedHeaderLines(
            lines: Array("X-Note: set-cookie: no\nSet-Cookiex: no\nSet-Cookie\n".utf8), parse: { _ in [:] })
        #expect(!lines.contains(.setCookie))
    }

    @Test func aResponseSaysWhetherItHasAFieldWithoutParsingItsReceivedLines() {
        let parser = CountingParser()
        let lines = ReceivedHeaderLines(lines: Array("Content-Type:text/plain\n".utf8), parse: parser.parse)
        var response = Response(
            status: .ok, receivedHeaderLines: lines, bodyStream: ResponseBodyStream(Data()), request: Self.request)
        #expect(response.hasHeaderField(named: .contentType))
        #expect(!response.hasHeaderField(named: .setCookie))
        #expect(parser.calls == 0)
        response.headerFields[.setCookie] = "a=1"
        #expect(response.hasHeaderField(named: .setCookie))
    }
}
