/// A JSON value as data items build it: the containers their paths make, and the leaves as given.
///
/// Raw JSON from `name:=json` stays the text the user wrote (already checked to be valid), so
/// numbers keep their spelling; it is read into containers only when a later path goes inside it
/// (`foo:=[1,2]` then `foo[]:=3`).
indirect enum JSONBodyValue: Equatable {
    /// An object's members, in the order they were first given.
    case object([Member])
    /// An array's elements; `nil` is a position no item has filled, sent as `null` (HTTPie fills
    /// gaps with null) and still free for a later item to fill.
    case array([JSONBodyValue?])
    /// A string from `name=value`.
    case string(String)
    /// Valid JSON text from `name:=json`, or a scalar read from inside one.
    case raw(String)

    /// One member of an object.
    struct Member: Equatable {
        var key: String
        var value: JSONBodyValue
    }

    /// The value's JSON type, as HTTPie names it in its errors (`'object'`, `'array'`…).
    var typeName: String {
        switch self {
        case .object: "object"
        case .array: "array"
        case .string: "string"
        case .raw(let text):
            switch text.first {
            case "{": "object"
            case "[": "array"
            case "\"": "string"
            case "t", "f": "boolean"
            case "n": "null"
            default: "number"
            }
        }
    }

    /// The value as JSON text, laid out as HTTPie's `json.dumps` lays it out: `", "` between
    /// elements and `": "` after keys, raw JSON as written.
    var text: String {
        var output = ""
        write(to: &output)
        return output
    }

    private func write(to output: inout String) {
        switch self {
        case .object(let members):
            output += "{"
            for (position, member) in members.enumerated() {
                if position > 0 { output += ", " }
                output += Self.quoted(member.key) + ": "
                member.value.write(to: &output)
            }
            output += "}"
        case .array(let elements):
            output += "["
            for (position, element) in elements.enumerated() {
                if position > 0 { output += ", " }
                if let element { element.write(to: &output) } else { output += "null" }
            }
            output += "]"
        case .string(let string):
            output += Self.quoted(string)
        case .raw(let text):
            output += text
        }
    }

    /// `text` as a JSON string literal: quotes, backslashes and control characters escaped, nothing else.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
