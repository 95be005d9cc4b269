// Fuzzes the builder's header checks against RFC 9110 read directly: a name is a token, a value
// (spaces and tabs trimmed at its ends) has no control character but tab; accepted iff both hold.
import Courier
import CourierFuzzDriver
import HTTPTypes

/// tchar (RFC 9110 §5.6.2).
func isTokenByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
        true
    default:
        "!#$%&'*+-.^_`|~".utf8.contains(byte)
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    // The name, a NUL, then the value; both as UTF-8 (invalid bytes become U+FFFD, which is obs-text).
    let separator = input.firstIndex(of: 0) ?? input.count
    let name = String(decoding: input[..<separator], as: UTF8.self)
    let value = String(decoding: input[min(separator + 1, input.count)...], as: UTF8.self)

    let nameIsToken = !name.isEmpty && name.utf8.allSatisfy(isTokenByte)
    var valueBytes = ArraySlice(value.utf8)
    while let first = valueBytes.first, first == 0x20 || first == 0x09 { valueBytes.removeFirst() }
    while let last = valueBytes.last, last == 0x20 || last == 0x09 { valueBytes.removeLast() }
    let valueIsClean = valueBytes.allSatisfy { $0 >= 0x20 && $0 != 0x7F || $0 == 0x09 }

    let field = try? HTTPField.validated(name, value, source: "fuzz")
    precondition((field != nil) == (nameIsToken && valueIsClean),
                 "name \(name.debugDescription) value \(value.debugDescription): accepted \(field != nil), RFC 9110 says \(nameIsToken && valueIsClean)")
    if let field {
        precondition(Array(field.value.utf8) == Array(valueBytes), "the value was changed beyond trimming")
        precondition(field.name.rawName == name, "the name was changed")
    }
    return 0
}

courier_fuzz_main(CommandLine.argc, CommandLine.unsafeArgv, fuzzOneInput)
