import Courier
import Foundation
import Testing

/// The WHATWG event stream interpretation rules, one by one, without a network.
@Suite("Server-Sent Events parser")
struct EventStreamParserTests {
    /// Parses `text` as one whole stream, then ends it.
    private func events(_ text: String, maxLineBytes: Int = 1024) throws -> [ServerSentEvent] {
        try events(Array(text.utf8), maxLineBytes: maxLineBytes)
    }

    private func events(_ bytes: [UInt8], maxLineBytes: Int = 1024) throws -> [ServerSentEvent] {
        var parser = EventStreamParser(maxLineBytes: maxLineBytes)
        let events = try parser.parse(bytes)
        parser.finish()
        return events
    }

    @Test func anEventsDataMayReachItsLimitButNotPassIt() throws {
        var parser = EventStreamParser(maxLineBytes: 100, maxEventBytes: 9)
        #expect(try parser.parse(Array("data: abcd\ndata: efgh\n\n".utf8)).map(\.data) == ["abcd\nefgh"])
        var over = EventStreamParser(maxLineBytes: 100, maxEventBytes: 9)
        #expect(throws: CourierError.self) { try over.parse(Array("data: abcd\ndata: efghi\n".utf8)) }
    }

    @Test func dataLinesWithoutABlankLineStopAtTheEventLimit() throws {
        var parser = EventStreamParser(maxLineBytes: 200, maxEventBytes: 64 * 1024)
        let line = Array("data: \(String(repeating: "x", count: 99))\n".utf8)
        var failure: CourierError?
        for _ in 0..<10_000 where failure == nil {
            do { _ = try parser.parse(line) } catch { failure = error }
        }
        #expect(failure?.code == .limitExceeded)
        #expect(failure?.source == "Limits.maxEventBytes")
    }

    @Test func aBlankLineDispatchesAMessageEvent() throws {
        #expect(try events("data: hello\n\n") == [ServerSentEvent(data: "hello")])
    }

    @Test func dataLinesAreJoinedWithLineFeeds() throws {
        #expect(try events("data: first\ndata: second\ndata: third\n\n").map(\.data) == ["first\nsecond\nthird"])
    }

    @Test func onlyTheLastLineFeedOfTheDataIsRemoved() throws {
        #expect(try events("data: a\ndata:\n\n").map(\.data) == ["a\n"])
        #expect(try events("data\ndata\n\n").map(\.data) == ["\n"])
    }

    @Test func aFieldWithoutAColonHasAnEmptyValue() throws {
        #expect(try events("data\n\n") == [ServerSentEvent(data: "")])
    }

    @Test func exactlyOneSpaceAfterTheColonIsRemoved() throws {
        #expect(
            try events("data:none\n\ndata: one\n\ndata:  two\n\ndata:\tx\n\n").map(\.data) == [
                "none", "one", " two", "\tx",
            ])
    }

    @Test func onlyTheFirstColonSeparatesFieldAndValue() throws {
        #expect(try events("data: a: b:c\n\n").map(\.data) == ["a: b:c"])
    }

    @Test func theEventFieldSetsTheTypeOfOneEventOnly() throws {
        let parsed = try events("event: add\ndata: 1\n\ndata: 2\n\nevent:\ndata: 3\n\n")
        #expect(parsed.map(\.type) == ["add", "message", "message"])
    }

    @Test func anEventWithoutDataIsNotDispatchedAndForgetsItsType() throws {
        #expect(try events("event: add\n\ndata: y\n\n") == [ServerSentEvent(data: "y")])
        #expect(try events("event: add\nid: 1\n\n").isEmpty)
    }

    @Test func commentsAreIgnored() throws {
        #expect(try events(": keep-alive\n:\n:data: no\ndata: yes\n: between\n\n").map(\.data) == ["yes"])
        #expect(try events(": only a comment\n\n").isEmpty)
    }

    @Test func unknownFieldsAndWrongCaseAreIgnored() throws {
        #expect(try events("foo: bar\nData: no\nEVENT: no\ndata: yes\n\n") == [ServerSentEvent(data: "yes")])
        #expect(try events("data : spaced name\n\n").isEmpty)
    }

    @Test func theIDPersistsAcrossEventsUntilChanged() throws {
        let parsed = try events("id: 1\ndata: a\n\ndata: b\n\nid: 2\ndata: c\n\n")
        #expect(parsed.map(\.id) == ["1", "1", "2"])
    }

    @Test func anEmptyIDResetsTheLastEventID() throws {
        #expect(
            try events("id: 1\ndata: a\n\nid\ndata: b\n\nid: 3\ndata: c\n\nid:\ndata: d\n\n").map(\.id) == [
                "1", nil, "3", nil,
            ])
    }

    @Test func anIDContainingNULIsIgnored() throws {
        var parser = EventStreamParser()
        let parsed = try parser.parse(Array("id: 1\ndata: a\n\nid: 2\u{0}x\ndata: b\n\n".utf8))
        #expect(parsed.map(\.id) == ["1", "1"])
        #expect(parser.lastEventID == "1")
    }

    @Test func theLastEventIDChangesOnlyWhenABlankLineEndsTheBlock() throws {
        var parser = EventStreamParser(lastEventID: "4")
        _ = try parser.parse(Array("id: 5\n".utf8))
        #expect(parser.lastEventID == "4")
        _ = try parser.parse(Array("\n".utf8))
        #expect(parser.lastEventID == "5", "an id without data still sets the ID a reconnection sends")
        _ = try parser.parse(Array("id: 6\ndata: cut off".utf8))
        parser.finish()
        #expect(parser.lastEventID == "5")
    }

    @Test func aParserCarriesTheIDOfAnEarlierConnection() throws {
        var parser = EventStreamParser(lastEventID: "7")
        #expect(try parser.parse(Array("data: a\n\n".utf8)).map(\.id) == ["7"])
    }

    @Test func retryTakesOnlyASCIIDigits() throws {
        func retry(_ line: String) throws -> Duration? {
            var parser = EventStreamParser()
            _ = try parser.parse(Array("retry\(line)\n".utf8))
            return parser.reconnectionTime
        }
        #expect(try retry(": 1500") == .milliseconds(1500))
        #expect(try retry(":0") == .zero)
        #expect(try retry(": 007") == .milliseconds(7))
        for ignored in [
            "", ":", ": ", ":  100", ": 15x", ": -1", ": +1", ": 1.5", ": 1e3", ": 1 ", ": ١٢", ": \u{FF11}",
        ] {
            #expect(try retry(ignored) == nil, "retry\(ignored)")
        }
    }

    @Test func aHugeRetryIsClampedInsteadOfOverflowing() throws {
        var parser = EventStreamParser()
        _ = try parser.parse(Array("retry: 99999999999999999999999999\n".utf8))
        #expect(parser.reconnectionTime == .milliseconds(Int64.max))
    }

    @Test func eventsReportTheRetryInForce() throws {
        #expect(try events("data: a\n\nretry: 250\n\ndata: b\n\n").map(\.retry) == [nil, .milliseconds(250)])
    }

    @Test func linesMayEndInCRLFOrCRLF() throws {
        let expected = [ServerSentEvent(type: "t", data: "a\nb")]
        #expect(try events("event: t\ndata: a\ndata: b\n\n") == expected)
        #expect(try events("event: t\r\ndata: a\r\ndata: b\r\n\r\n") == expected)
        #expect(try events("event: t\rdata: a\rdata: b\r\r") == expected)
        #expect(try events("event: t\r\ndata: a\rdata: b\n\r\n") == expected)
    }

    @Test func lineFeedThenCarriageReturnIsTwoLineEndings() throws {
        #expect(try events("data: a\n\rdata: b\n\n").map(\.data) == ["a", "b"])
    }

    @Test func aCRAtTheEndOfAChunkAndALFAtTheStartOfTheNextAreOneLineEnding() throws {
        var parser = EventStreamParser()
        #expect(try parser.parse(Array("data: a\r".utf8)).isEmpty)
        #expect(try parser.parse(Array("\ndata: b\r".utf8)).isEmpty, "the LF must not be read as a blank line")
        #expect(try parser.parse(Array("\n".utf8)).isEmpty)
        #expect(try parser.parse(Array("\r".utf8)) == [ServerSentEvent(data: "a\nb")])
        #expect(try parser.parse(Array("\n".utf8)).isEmpty)
    }

    @Test func oneLeadingByteOrderMarkIsSkipped() throws {
        #expect(try events([0xEF, 0xBB, 0xBF] + Array("data: x\n\n".utf8)) == [ServerSentEvent(data: "x")])
        #expect(try events([0xEF, 0xBB, 0xBF] + Array("\ndata: x\n\n".utf8)) == [ServerSentEvent(data: "x")])
    }

    @Test func aSecondByteOrderMarkIsPartOfTheFieldName() throws {
        #expect(try events([0xEF, 0xBB, 0xBF, 0xEF, 0xBB, 0xBF] + Array("data: x\n\n".utf8)).isEmpty)
    }

    @Test func aByteOrderMarkAfterTheStartIsNotSkipped() throws {
        #expect(
            try events(Array("data: a\n\n".utf8) + [0xEF, 0xBB, 0xBF] + Array("data: b\n\n".utf8)).map(\.data) == ["a"])
        #expect(try events(Array("data: \u{FEFF}b\n\n".utf8)).map(\.data) == ["\u{FEFF}b"])
    }

    @Test func anEventTheStreamEndsBeforeDispatchingIsDiscarded() throws {
        #expect(try events("data: a\n\ndata: b\n").map(\.data) == ["a"])
        #expect(try events("data: a\n\ndata: b").map(\.data) == ["a"])
        var parser = EventStreamParser()
        _ = try parser.parse(Array("event: half\ndata: b\n".utf8))
        parser.finish()
        #expect(try parser.parse(Array("\n".utf8)).isEmpty, "a new stream starts with empty buffers")
    }

    @Test func aNewStreamAfterFinishMayStartWithAByteOrderMarkAgain() throws {
        var parser = EventStreamParser()
        _ = try parser.parse(Array("data: a\r".utf8))
        parser.finish()
        #expect(
            try parser.parse([0xEF, 0xBB, 0xBF] + Array("\ndata: b\n\n".utf8)) == [ServerSentEvent(data: "b")],
            "each stream may start with its own byte order mark")
    }

    @Test func textIsUTF8WithInvalidBytesReplaced() throws {
        #expect(try events("event: ünï\ndata: 日本 🚀\n\n") == [ServerSentEvent(type: "ünï", data: "日本 🚀")])
        #expect(
            try events(Array("data: a".utf8) + [0xFF, 0xE2] + Array("\ndata: \u{0}\n\n".utf8)).map(\.data) == [
                "a\u{FFFD}\u{FFFD}\n\u{0}"
            ])
    }

    @Test func aLineOfExactlyTheLimitIsAccepted() throws {
        let line = "data: " + String(repeating: "x", count: 58)
        #expect(line.utf8.count == 64)
        #expect(try events(line + "\r\n\r\n", maxLineBytes: 64).map(\.data) == [String(repeating: "x", count: 58)])
        #expect(
            try events([0xEF, 0xBB, 0xBF] + Array((line + "\n\n").utf8), maxLineBytes: 64).count == 1,
            "the byte order mark does not count")
    }

    @Test func aLineOneByteOverTheLimitIsLimitExceeded() throws {
        let line = "data: " + String(repeating: "x", count: 59)
        let error = try #require(throws: CourierError.self) { try events(line + "\n\n", maxLineBytes: 64) }
        #expect(error.code == .limitExceeded)
        #expect(error.source == "Limits.maxEventLineBytes")
    }

    @Test func anOverlongLineFailsAsSoonAsItPassesTheLimitWithoutALineEnding() throws {
        var parser = EventStreamParser(maxLineBytes: 8)
        for byte in "comment!".utf8 { _ = try parser.parse([byte]) }
        #expect(throws: CourierError.self) { try parser.parse(Array("?".utf8)) }
    }

    @Test func theLimitIsPerLineNotPerEvent() throws {
        let lines = String(repeating: "data: 12345678\n", count: 100)
        #expect(try events(lines + "\n", maxLineBytes: 14).first?.data.count == 899)
    }

    @Test func theDefaultLimitComesFromLimits() {
        #expect(EventStreamParser().maxLineBytes == Limits().maxEventLineBytes)
        #expect(Limits().maxEventLineBytes == 1024 * 1024)
    }

    @Test func dataDecodesAsJSON() throws {
        struct Tick: Decodable, Equatable { let n: Int }
        #expect(try ServerSentEvent(data: #"{"n": 3}"#).decode(Tick.self) == Tick(n: 3))
        let error = try #require(throws: CourierError.self) { try ServerSentEvent(data: "nope").decode(Tick.self) }
        #expect(error.code == .decodingFailed)
        #expect(error.underlying is DecodingError)
    }
}
