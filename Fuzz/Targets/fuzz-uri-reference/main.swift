// Fuzzes RFC 3986 reference parsing and resolution: a parsed reference recomposes to the exact
// string it came from, and a target resolved from a reference with a path has no dot segments and
// resolves to itself again. (A reference with an empty path takes the base's path as it is, dot
// segments included: §5.2.2 assumes a normalized base, so that case is left out.)
@testable import Courier
import CourierFuzzDriver

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    // The base, a newline, then the reference.
    let parts = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
    let base = URIReference(parsing: String(parts[0]))
    precondition(base.string == String(parts[0]), "parsing then recomposing changed \(parts[0].debugDescription)")
    guard parts.count == 2 else { return 0 }
    let reference = URIReference(parsing: String(parts[1]))
    precondition(reference.string == String(parts[1]), "parsing then recomposing changed \(parts[1].debugDescription)")
    guard base.scheme != nil, !reference.path.isEmpty else { return 0 }

    for strict in [true, false] {
        let target = reference.resolved(against: base, strict: strict)
        precondition(target.scheme != nil, "a target without a scheme")
        let segments = target.path.split(separator: "/", omittingEmptySubsequences: false)
        precondition(!segments.contains(".") && !segments.contains(".."),
                     "dot segments left in \(target.path.debugDescription)")
        // Not strict, a target with the base's scheme reads as relative (`http:g` is `g`), so only
        // one whose path cannot be merged again is its own resolution.
        if strict || target.authority != nil || target.path.hasPrefix("/") {
            precondition(target.resolved(against: base, strict: strict) == target,
                         "resolving \(target.string.debugDescription) again changed it")
        }
        precondition(URIReference.removeDotSegments(target.path) == target.path, "removing dot segments is not idempotent")
    }
    return 0
}

courier_fuzz_main(CommandLine.argc, CommandLine.unsafeArgv, fuzzOneInput)
