/// Writes the JSON object that `name=value` and `name:=json` items make, in the order given.
///
/// Raw JSON values are copied as the user wrote them (already checked to be valid), so numbers
/// keep their spelling; a name given twice keeps its first position and its last value.
enum JSONObjectText {
    static func object(_ fields: [(name: String, json: String)]) -> String {
        var members: [(name: String, json: String)] = []
        var positions: [String: Int] = [:]
        for field in fields {
            if let position = positions[field.name] {
                members[position].json = field.json
            } else {
                positions[field.name] = members.count
                members.append(field)
            }
        }
        return "{" + members.map { "\(quoted($0.name)): \($0.json)" }.joined(separator: ", ") + "}"
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
