// Fuzzes EventStreamParser with its own promise: a stream split anywhere gives the same events,
// ID and retry as the whole stream at once, and a line over the limit fails either way.
import Courier
import CourierFuzzDriver

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    guard let control = input.first else { return 0 }
    let stream = input.dropFirst()
    // A small limit so that limit errors are reached; the split stride from the same byte.
    let limit = 8 + Int(control & 0x3F)
    let stride = 1 + Int(control >> 6) * 3

    var whole = EventStreamParser(maxLineBytes: limit)
    let wholeEvents = try? whole.parse(stream)

    var split = EventStreamParser(maxLineBytes: limit)
    var splitEvents: [ServerSentEvent]? = []
    var start = stream.startIndex
    while start < stream.endIndex, splitEvents != nil {
        let end = min(start + stride, stream.endIndex)
        do { splitEvents! += try split.parse(stream[start..<end]) } catch { splitEvents = nil }
        start = end
    }

    precondition((wholeEvents == nil) == (splitEvents == nil), "a split stream failed differently from the whole")
    if let wholeEvents, let splitEvents {
        precondition(wholeEvents == splitEvents, "a split stream gave other events: \(wholeEvents) vs \(splitEvents)")
        precondition(whole.lastEventID == split.lastEventID && whole.reconnectionTime == split.reconnectionTime,
                     "a split stream left another last event ID or retry")
        for event in wholeEvents {
            precondition(!(event.id ?? "").contains("\0"), "an ID with NUL was kept")
        }
    }
    whole.finish()
    _ = try? whole.parse(stream)
    return 0
}

courier_fuzz_main(CommandLine.argc, CommandLine.unsafeArgv, fuzzOneInput)
