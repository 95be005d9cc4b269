// Fuzzes URLFormEncoder by round trip: a value built from the input is encoded, the string is
// decoded by a reference decoder (WHATWG form parsing on Foundation's percent-decoding), and the
// fields must be exactly the ones the documented flattening rules name, in order.
import Courier
import CourierFuzzDriver
import Foundation

/// Reads the input as a small program: bytes choose shapes, length-prefixed runs give strings.
struct InputReader {
    var bytes: ArraySlice<UInt8>

    mutating func byte() -> UInt8? { bytes.popFirst() }

    mutating func string() -> String {
        let length = Int(byte() ?? 0) % 24
        let run = bytes.prefix(length)
        bytes = bytes.dropFirst(length)
        return String(decoding: run, as: UTF8.self)
    }
}

/// A form value: what a Codable type's members can be.
indirect enum FormValue: Encodable {
    case string(String)
    case object([(key: String, value: FormValue)])
    case array([FormValue])

    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    func encode(to encoder: any Encoder) throws {
        switch self {
        case .string(let text):
            var container = encoder.singleValueContainer()
            try container.encode(text)
        case .object(let members):
            var container = encoder.container(keyedBy: Key.self)
            for member in members { try container.encode(member.value, forKey: Key(stringValue: member.key)) }
        case .array(let elements):
            var container = encoder.unkeyedContainer()
            for element in elements { try container.encode(element) }
        }
    }

    var isContainer: Bool {
        if case .string = self { false } else { true }
    }

    static func read(_ reader: inout InputReader, depth: Int) -> FormValue {
        let shape = depth >= 3 ? 0 : (reader.byte() ?? 0) % 3
        let count = Int(reader.byte() ?? 0) % 5
        switch shape {
        case 1: return .object(members(&reader, count: count, depth: depth + 1))
        case 2: return .array((0..<count).map { _ in read(&reader, depth: depth + 1) })
        default: return .string(reader.string())
        }
    }

    /// Members with distinct keys: a repeated key replaces the earlier value in place, which
    /// `Codable` types never do, so the fuzzer does not either.
    static func members(_ reader: inout InputReader, count: Int, depth: Int) -> [(key: String, value: FormValue)] {
        var members: [(key: String, value: FormValue)] = []
        for _ in 0..<count {
            let key = reader.string()
            let value = read(&reader, depth: depth)
            if !members.contains(where: { $0.key == key }) { members.append((key, value)) }
        }
        return members
    }

    /// The fields the encoder's documentation names for this value under `name`.
    func expectedFields(name: String, arrays: URLFormEncoder.ArrayEncoding) -> [(String, String)] {
        switch self {
        case .string(let text):
            return [(name, text)]
        case .object(let members):
            return members.flatMap { $0.value.expectedFields(name: "\(name)[\($0.key)]", arrays: arrays) }
        case .array(let elements):
            let indexed = arrays == .indexed || elements.contains(where: \.isContainer)
            return elements.enumerated().flatMap { index, element in
                let elementName = indexed ? "\(name)[\(index)]" : arrays == .brackets ? "\(name)[]" : name
                return element.expectedFields(name: elementName, arrays: arrays)
            }
        }
    }
}

/// application/x-www-form-urlencoded parsing (WHATWG URL §5.1), independent of the encoder.
func referenceDecode(_ form: String) -> [(String, String)]? {
    guard !form.isEmpty else { return [] }
    var fields: [(String, String)] = []
    for pair in form.split(separator: "&", omittingEmptySubsequences: false) {
        let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2,
              let name = parts[0].replacingOccurrences(of: "+", with: " ").removingPercentEncoding,
              let value = parts[1].replacingOccurrences(of: "+", with: " ").removingPercentEncoding
        else { return nil }
        fields.append((name, value))
    }
    return fields
}

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var reader = InputReader(bytes: ArraySlice(UnsafeBufferPointer(start: data, count: size)))
    let arrays: URLFormEncoder.ArrayEncoding = switch (reader.byte() ?? 0) % 3 {
    case 0: .repeatedKey
    case 1: .brackets
    default: .indexed
    }
    let members = FormValue.members(&reader, count: Int(reader.byte() ?? 0) % 6, depth: 0)
    let value = FormValue.object(members)
    let expected = members.flatMap { $0.value.expectedFields(name: $0.key, arrays: arrays) }

    let encoded: String
    do {
        encoded = try URLFormEncoder(arrayEncoding: arrays).encodeAsString(value)
    } catch {
        preconditionFailure("encoding \(value) failed: \(error)")
    }
    precondition(encoded.utf8.allSatisfy { byte in
        byte < 0x80 && (byte == UInt8(ascii: "%") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "&")
            || byte == UInt8(ascii: "=") || "*-._".utf8.contains(byte)
            || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte))
    }, "a byte outside the form set in \(encoded.debugDescription)")
    guard let decoded = referenceDecode(encoded) else {
        preconditionFailure("the reference decoder cannot read \(encoded.debugDescription)")
    }
    precondition(decoded.count == expected.count && zip(decoded, expected).allSatisfy { $0 == $1 },
                 "round trip of \(value): encoded \(encoded.debugDescription), decoded \(decoded), expected \(expected)")
    return 0
}

courier_fuzz_main(CommandLine.argc, CommandLine.unsafeArgv, fuzzOneInput)
