/// Turns the bytes of a `text/event-stream` into events, following the WHATWG "event stream
/// interpretation" rules exactly.
///
/// A pure state machine: feed it chunks as they arrive, split anywhere (inside a line, between a
/// CR and its LF, inside a UTF-8 sequence or the byte order mark), and it returns the same events
/// as for the whole stream at once. It does no I/O and never waits.
///
/// ```swift
/// var parser = EventStreamParser()
/// for try await chunk in body { for event in try parser.parse(chunk) { handle(event) } }
/// parser.finish()
/// ```
///
/// Rules: lines end in CR, LF or CRLF; one leading byte order mark is skipped; a line starting
/// with `:` is a comment; `field: value` loses one space after the colon; `data` lines are joined
/// with LF; `event` names the type (`"message"` when absent); `id` is ignored if it contains NUL
/// and otherwise persists across events; `retry` is honoured only when it is all ASCII digits;
/// unknown fields are ignored; a blank line dispatches the event unless it has no `data`; an
/// event the stream ends before dispatching is discarded.
public struct EventStreamParser: Sendable {
    /// The longest line accepted, in bytes without its line ending.
    public let maxLineBytes: Int
    /// The most data an event may gather before it is dispatched, in bytes.
    public let maxEventBytes: Int
    /// The last event ID as of the latest dispatched event (what `Last-Event-ID` sends); empty when none.
    public private(set) var lastEventID: String
    /// The reconnection delay set by the latest valid `retry` field, if any.
    public private(set) var reconnectionTime: Duration?

    private var line: [UInt8] = []
    private var afterCR = false
    private var atStreamStart = true
    private var dataBuffer: [UInt8] = []
    private var eventTypeBuffer = ""
    private var lastEventIDBuffer: String

    /// Creates a parser for one stream.
    ///
    /// - Parameters:
    ///   - maxLineBytes: the longest line accepted (`Limits.maxEventLineBytes`).
    ///   - maxEventBytes: the most data one event gathers (`Limits.maxEventBytes`).
    ///   - lastEventID: the ID carried over from an earlier connection; the spec starts each stream
    ///     with an empty ID buffer, but browsers keep the ID across reconnections, and so does this.
    public init(
        maxLineBytes: Int = Limits().maxEventLineBytes, maxEventBytes: Int = Limits().maxEventBytes,
        lastEventID: String = ""
    ) {
        self.maxLineBytes = maxLineBytes
        self.maxEventBytes = maxEventBytes
        self.lastEventID = lastEventID
        self.lastEventIDBuffer = lastEventID
    }

    /// Consumes the next chunk of the stream and returns the events it completes, in order.
    ///
    /// - Throws: `limitExceeded` as soon as a line grows past `maxLineBytes`, or an event's data
    ///   past `maxEventBytes`; the stream is then unusable.
    public mutating func parse<Bytes: Collection<UInt8>>(_ chunk: Bytes) throws(CourierError) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        var index = chunk.startIndex
        while index < chunk.endIndex {
            if afterCR {
                afterCR = false
                if chunk[index] == Self.lf {
                    index = chunk.index(after: index)
                    continue
                }
            }
            guard let end = chunk[index...].firstIndex(where: { $0 == Self.lf || $0 == Self.cr }) else {
                try append(chunk[index...])
                break
            }
            try append(chunk[index..<end])
            afterCR = chunk[end] == Self.cr
            if let event = try processLine() { events.append(event) }
            index = chunk.index(after: end)
        }
        return events
    }

    /// Ends the stream: an unfinished line or event is discarded, as the spec requires, and the
    /// parser is ready for the next connection's stream, keeping `lastEventID` and `reconnectionTime`.
    public mutating func finish() {
        line.removeAll(keepingCapacity: true)
        afterCR = false
        atStreamStart = true
        dataBuffer.removeAll()
        eventTypeBuffer = ""
        lastEventIDBuffer = lastEventID
    }

    private mutating func append(_ bytes: some Collection<UInt8>) throws(CourierError) {
        guard !bytes.isEmpty else { return }
        guard line.count + bytes.count <= maxLineBytes + byteOrderMarkAllowance(adding: bytes) else {
            throw CourierError(
                .limitExceeded, "a Server-Sent Events line is longer than the limit of \(maxLineBytes) bytes",
                source: "Limits.maxEventLineBytes")
        }
        line.append(contentsOf: bytes)
    }

    /// The bytes of a leading byte order mark in the first line, which do not count toward its length.
    private func byteOrderMarkAllowance(adding bytes: some Collection<UInt8>) -> Int {
        guard atStreamStart, line.count + bytes.count > maxLineBytes else { return 0 }
        let head = Array(line.prefix(Self.byteOrderMark.count)) + Array(bytes.prefix(Self.byteOrderMark.count))
        return head.starts(with: Self.byteOrderMark) ? Self.byteOrderMark.count : 0
    }

    /// Interprets the line just ended; returns the event a blank line dispatches.
    private mutating func processLine() throws(CourierError) -> ServerSentEvent? {
        var content = line[...]
        if atStreamStart {
            atStreamStart = false
            if content.starts(with: Self.byteOrderMark) { content = content.dropFirst(Self.byteOrderMark.count) }
        }
        defer { line.removeAll(keepingCapacity: true) }
        guard let first = content.first else { return dispatch() }
        guard first != Self.colon else { return nil }
        let field: ArraySlice<UInt8>
        var value: ArraySlice<UInt8>
        if let colon = content.firstIndex(of: Self.colon) {
            field = content[..<colon]
            value = content[content.index(after: colon)...]
            if value.first == Self.space { value = value.dropFirst() }
        } else {
            field = content
            value = []
        }
        try process(field: field, value: value)
        return nil
    }

    private mutating func process(field: ArraySlice<UInt8>, value: ArraySlice<UInt8>) throws(CourierError) {
        if field.elementsEqual(Self.event) {
            eventTypeBuffer = String(decoding: value, as: UTF8.self)
        } else if field.elementsEqual(Self.data) {
            // The line feed joining the next line does not count: the dispatched data has none at its end.
            guard dataBuffer.count + value.count <= maxEventBytes else {
                throw CourierError(
                    .limitExceeded,
                    "a Server-Sent Event's data grew past the limit of \(maxEventBytes) bytes before a blank line ended it",
                    source: "Limits.maxEventBytes")
            }
            dataBuffer.append(contentsOf: value)
            dataBuffer.append(Self.lf)
        } else if field.elementsEqual(Self.id) {
            if !value.contains(0) { lastEventIDBuffer = String(decoding: value, as: UTF8.self) }
        } else if field.elementsEqual(Self.retry) {
            guard !value.isEmpty, value.allSatisfy({ (Self.zero...Self.nine).contains($0) }) else { return }
            var milliseconds: Int64 = 0
            for digit in value {
                let (shifted, overflowed) = milliseconds.multipliedReportingOverflow(by: 10)
                let (sum, carried) = shifted.addingReportingOverflow(Int64(digit - Self.zero))
                milliseconds = overflowed || carried ? .max : sum
            }
            reconnectionTime = .milliseconds(milliseconds)
        }
    }

    /// The spec's "dispatch the event" steps.
    private mutating func dispatch() -> ServerSentEvent? {
        lastEventID = lastEventIDBuffer
        defer {
            dataBuffer.removeAll(keepingCapacity: true)
            eventTypeBuffer = ""
        }
        guard !dataBuffer.isEmpty else { return nil }
        if dataBuffer.last == Self.lf { dataBuffer.removeLast() }
        return ServerSentEvent(
            type: eventTypeBuffer.isEmpty ? "message" : eventTypeBuffer,
            data: String(decoding: dataBuffer, as: UTF8.self),
            id: lastEventID.isEmpty ? nil : lastEventID,
            retry: reconnectionTime)
    }

    private static let lf = UInt8(ascii: "\n")
    private static let cr = UInt8(ascii: "\r")
    private static let colon = UInt8(ascii: ":")
    private static let space = UInt8(ascii: " ")
    private static let zero = UInt8(ascii: "0")
    private static let nine = UInt8(ascii: "9")
    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
    private static let event = Array("event".utf8)
    private static let data = Array("data".utf8)
    private static let id = Array("id".utf8)
    private static let retry = Array("retry".utf8)
}
