import Foundation

/// Reads raw JSON text into a `JSONBodyValue`, for a path that goes inside a `name:=json` value.
///
/// Foundation's parser would lose member order and number spelling, so this reader keeps both:
/// containers become `.object`/`.array`, every scalar stays `.raw` with its text as written, and
/// members repeated in the text stay repeated, as HTTPie keeps them.
struct RawJSONReader {
    /// The text is not one JSON value; raw JSON items are checked when parsed, so this means a bug.
    struct Malformed: Error, CustomStringConvertible {
        var offset: Int
        var description: String { "raw JSON value cannot be read at byte \(offset)" }
    }

    private let bytes: [UInt8]
    private var position = 0

    /// `text` as a value.
    static func read(_ text: String) throws(Malformed) -> JSONBodyValue {
        var reader = RawJSONReader(bytes: Array(text.utf8))
        let value = try reader.value()
        reader.skipSpace()
        guard reader.position == reader.bytes.count else { throw Malformed(offset: reader.position) }
        return value
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private mutating func value() throws(Malformed) -> JSONBodyValue {
        skipSpace()
        guard position < bytes.count else { throw Malformed(offset: position) }
        switch bytes[position] {
        case UInt8(ascii: "{"):
            position += 1
            var members: [JSONBodyValue.Member] = []
            skipSpace()
            if consume(UInt8(ascii: "}")) { return .object(members) }
            repeat {
                skipSpace()
                let key = try decodedString()
                skipSpace()
                guard consume(UInt8(ascii: ":")) else { throw Malformed(offset: position) }
                members.append(JSONBodyValue.Member(key: key, value: try value()))
                skipSpace()
            } while consume(UInt8(ascii: ","))
            guard consume(UInt8(ascii: "}")) else { throw Malformed(offset: position) }
            return .object(members)
        case UInt8(ascii: "["):
            position += 1
            var elements: [JSONBodyValue?] = []
            skipSpace()
            if consume(UInt8(ascii: "]")) { return .array(elements) }
            repeat {
                elements.append(try value())
                skipSpace()
            } while consume(UInt8(ascii: ","))
            guard consume(UInt8(ascii: "]")) else { throw Malformed(offset: position) }
            return .array(elements)
        case UInt8(ascii: "\""):
            let start = position
            try skipString()
            return .raw(String(decoding: bytes[start..<position], as: UTF8.self))
        default:
            let start = position
            while position < bytes.count, !Self.delimiters.contains(bytes[position]) { position += 1 }
            guard position > start else { throw Malformed(offset: position) }
            return .raw(String(decoding: bytes[start..<position], as: UTF8.self))
        }
    }

    /// What ends a number or a literal.
    private static let delimiters: Set<UInt8> = Set(",]}: \t\r\n".utf8)

    /// A string literal's value, for an object key.
    private mutating func decodedString() throws(Malformed) -> String {
        let start = position
        try skipString()
        guard
            let key =
                (try? JSONSerialization.jsonObject(with: Data(bytes[start..<position]), options: .fragmentsAllowed))
                as? String
        else {
            throw Malformed(offset: start)
        }
        return key
    }

    /// Moves past the string literal that starts here.
    private mutating func skipString() throws(Malformed) {
        guard consume(UInt8(ascii: "\"")) else { throw Malformed(offset: position) }
        while position < bytes.count {
            let byte = bytes[position]
            position += byte == UInt8(ascii: "\\") ? 2 : 1
            if byte == UInt8(ascii: "\"") { return }
        }
        throw Malformed(offset: position)
    }

    private mutating func consume(_ byte: UInt8) -> Bool {
        guard position < bytes.count, bytes[position] == byte else { return false }
        position += 1
        return true
    }

    private mutating func skipSpace() {
        while position < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[position]) { position += 1 }
    }
}
