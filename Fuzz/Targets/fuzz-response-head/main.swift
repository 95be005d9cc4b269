// Fuzzes the curl transport's ResponseHeadParser with header lines as curl hands them over: it
// never traps, a complete head never holds more fields than the limit, and every byte counts.
@testable import CourierCurl
import Courier
import CourierFuzzDriver
import HTTPTypes

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    guard let control = input.first else { return 0 }
    var limits = Limits()
    limits.maxHeaderBytes = 64 + Int(control) * 8
    limits.maxHeaderCount = 1 + Int(control & 0x1F)
    var parser = ResponseHeadParser(limits: limits)

    // Lines end after each LF, as curl's header callback delivers them; the last may have none.
    var consumed = 0
    var lineStart = 1
    while lineStart < input.count {
        let lineEnd = input[lineStart...].firstIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? input.count
        let line = Array(input[lineStart..<lineEnd])
        consumed += line.count
        lineStart = lineEnd
        switch parser.consume(line) {
        case .needMore:
            precondition(consumed <= limits.maxHeaderBytes, "a head past the byte limit was taken")
        case .complete(let head):
            precondition(consumed <= limits.maxHeaderBytes, "a head past the byte limit completed")
            precondition(head.fields.count <= limits.maxHeaderCount, "a head past the field limit completed")
            precondition((100...999).contains(head.status.code), "a status outside 100...999: \(head.status.code)")
            return 0
        case .failed:
            return 0
        }
    }
    return 0
}

courier_fuzz_main(CommandLine.argc, CommandLine.unsafeArgv, fuzzOneInput)
