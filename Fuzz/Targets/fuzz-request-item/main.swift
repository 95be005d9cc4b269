// Fuzzes the CLI's HTTPie item parser: it never traps, and an item it parses, written back with
// every special character escaped, parses to the same item; a data field's nested-JSON path reads
// without trapping.
import CourierFuzzDriver
@testable import CourierRequestItems

/// `text` with a backslash before each character the parser treats as special.
func escaped(_ text: String) -> String {
    var result = ""
    for character in text {
        if RequestItemParser.specialCharacters.contains(character) { result.append("\\") }
        result.append(character)
    }
    return result
}

/// A data field's name written back: separators escaped, backslashes as they are, since its
/// spelling already writes an escaped backslash as `\\` and a lone one never precedes a separator.
func escaped(_ name: FieldName) -> String {
    var result = ""
    for character in name.spelling {
        if character != "\\", RequestItemParser.specialCharacters.contains(character) { result.append("\\") }
        result.append(character)
    }
    return result
}

/// The item as an argument again, or `nil` for kinds whose value is not kept verbatim.
func argument(for item: RequestItem) -> String? {
    switch item {
    case .header(let name, let value): escaped(name) + ":" + escaped(value)
    case .removedHeader(let name): escaped(name) + ":"
    case .emptyHeader(let name): escaped(name) + ";"
    case .query(let name, let value): escaped(name) + "==" + escaped(value)
    case .dataField(let name, let value): escaped(name) + "=" + escaped(value)
    case .rawJSONField(let name, let json): escaped(name) + ":=" + escaped(json)
    case .file: nil
    }
}

struct UnreadableFile: Error {}

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    // Files named "json" hold JSON, "text" holds text with separators in it, any other is unreadable.
    let readFile: (String) throws -> String = { path in
        switch path {
        case "json": " {\"a\": [1, 2.5, \"x\"]} "
        case "text": "a:b=c\\d"
        default: throw UnreadableFile()
        }
    }
    guard let item = try? RequestItemParser.parse(text, readFile: readFile) else { return 0 }
    // A data field's name is a nested-JSON path in a JSON body: reading it may fail, never trap.
    if case .dataField(let name, _) = item { _ = try? NestedJSONPath(parsing: name.spelling) }
    if let again = argument(for: item) {
        let reparsed = try? RequestItemParser.parse(again, readFile: readFile)
        precondition(reparsed == item, "\(text.debugDescription) parsed to \(item), written back as \(again.debugDescription) it parsed to \(String(describing: reparsed))")
    }
    return 0
}

courier_fuzz_main(CommandLine.argc, CommandLine.unsafeArgv, fuzzOneInput)
