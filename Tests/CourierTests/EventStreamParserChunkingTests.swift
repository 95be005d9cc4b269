import Courier
import Foundation
import Testing

/// However a stream is cut into chunks, the parser yields the same events and state as for the
/// whole stream at once.
@Suite("Server-Sent Events parser: chunk boundaries")
struct EventStreamParserChunkingTests {
    /// What a parser ends up with after a whole stream.
    struct Outcome: Equatable {
        var events: [ServerSentEvent]
        var lastEventID: String
        var reconnectionTime: Duration?
    }

    /// Streams that exercise every rule: BOM, each line ending, CRLF pairs, comments, ids (also
    /// with NUL), retry, multi-byte UTF-8, invalid bytes, empty data, an unfinished last event.
    static let streams: [[UInt8]] = [
        [0xEF, 0xBB, 0xBF]
            + Array("retry: 1500\r\n: comment\r\nid: 1\r\nevent: add\r\ndata: ünï\r\ndata: 🚀\r\n\r\n".utf8),
        Array("data: a\rdata: b\r\rid: 2\u{0}\rdata:\r\r:x\nid: 3\n\ndata: c\r\n\ndata: 日本\n\n".utf8),
        Array("event: x\ndata: 1\r\n\r\nretry: 2x\nretry: 20\ndata\ndata\n\nid\ndata: after\r\rdata: cut".utf8),
        [0xEF, 0xBB, 0xBF, 0xEF, 0xBB] + Array("data: bom-ish\n\ndata: a".utf8) + [0xE2, 0x82] + Array("\n\n".utf8),
        Array("\r\n\r\n\n\r\r\ndata:  lead\n\r\n".utf8),
    ]

    /// Runs `stream` through a fresh parser in the given pieces.
    static func outcome(_ pieces: [ArraySlice<UInt8>]) throws -> Outcome {
        var parser = EventStreamParser()
        var events: [ServerSentEvent] = []
        for piece in pieces { events += try parser.parse(piece) }
        parser.finish()
        return Outcome(events: events, lastEventID: parser.lastEventID, reconnectionTime: parser.reconnectionTime)
    }

    /// `stream` cut at each of `cuts` (sorted offsets).
    static func pieces(_ stream: [UInt8], cutAt cuts: [Int]) -> [ArraySlice<UInt8>] {
        var pieces: [ArraySlice<UInt8>] = []
        var start = 0
        for cut in cuts + [stream.count] {
            pieces.append(stream[start..<cut])
            start = cut
        }
        return pieces
    }

    @Test func theStreamsCoverEveryRule() throws {
        let whole = try Self.streams.map { try Self.outcome([$0[...]]) }
        #expect(
            whole[0]
                == Outcome(
                    events: [ServerSentEvent(type: "add", data: "ünï\n🚀", id: "1", retry: .milliseconds(1500))],
                    lastEventID: "1", reconnectionTime: .milliseconds(1500)))
        #expect(whole[1].events.map(\.data) == ["a\nb", "", "c", "日本"])
        #expect(whole[1].events.map(\.id) == [nil, nil, "3", "3"])
        #expect(whole[2].events.map(\.data) == ["1", "\n", "after"])
        #expect(whole[2].events.map(\.type) == ["x", "message", "message"])
        #expect(whole[2].reconnectionTime == .milliseconds(20))
        #expect(whole[2].lastEventID == "")
        #expect(whole[3].events.map(\.data) == ["a\u{FFFD}"])
        #expect(whole[4].events.map(\.data) == [" lead"])
    }

    @Test(arguments: streams.indices)
    func everySingleCutGivesTheSameOutcome(stream index: Int) throws {
        let stream = Self.streams[index]
        let expected = try Self.outcome([stream[...]])
        for cut in 0...stream.count {
            #expect(try Self.outcome(Self.pieces(stream, cutAt: [cut])) == expected, "cut at \(cut)")
        }
    }

    @Test(arguments: streams.indices)
    func everyPairOfCutsGivesTheSameOutcome(stream index: Int) throws {
        let stream = Self.streams[index]
        let expected = try Self.outcome([stream[...]])
        for first in 0...stream.count {
            for second in first...stream.count {
                let outcome = try Self.outcome(Self.pieces(stream, cutAt: [first, second]))
                if outcome != expected {
                    Issue.record("cuts at \(first) and \(second): \(outcome.events) instead of \(expected.events)")
                    return
                }
            }
        }
    }

    @Test(arguments: streams.indices)
    func oneByteChunksGiveTheSameOutcome(stream index: Int) throws {
        let stream = Self.streams[index]
        #expect(try Self.outcome(stream.indices.map { stream[$0...$0] }) == Self.outcome([stream[...]]))
    }

    @Test func randomChunkingsGiveTheSameOutcome() throws {
        let stream = Self.streams.joined().map { $0 }
        let expected = try Self.outcome([stream[...]])
        var generator = SplitMix64(seed: 0x5EED)
        for _ in 0..<200 {
            let cuts = (0..<Int.random(in: 1...20, using: &generator)).map { _ in
                Int.random(in: 0...stream.count, using: &generator)
            }
            #expect(try Self.outcome(Self.pieces(stream, cutAt: cuts.sorted())) == expected, "cuts \(cuts.sorted())")
        }
    }

    @Test func anOverlongLineFailsWhereverTheStreamIsCut() throws {
        let stream = Array("data: 1234\n\ndata: 12345\n\n".utf8)
        for cut in 0...stream.count {
            var parser = EventStreamParser(maxLineBytes: 10)
            var events: [ServerSentEvent] = []
            let error = #expect(throws: CourierError.self, "cut at \(cut)") {
                for piece in Self.pieces(stream, cutAt: [cut]) { events += try parser.parse(piece) }
            }
            #expect(error?.code == .limitExceeded)
            #expect(events.count <= 1)
        }
    }
}

/// A small seeded generator, so a failing chunking can be reproduced.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
