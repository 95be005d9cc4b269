/// A data field's path that cannot be read, or cannot be applied to the JSON built so far.
///
/// The kinds and messages are HTTPie's (`Expecting ']'`, `Cannot perform 'key' based access on
/// 'foo' which has a type of 'string' …`), so its documentation explains them. HTTPie prints the
/// path with carets under the offending part on a second and third line; `courier` keeps its errors
/// to one line, so the description quotes that part and gives its column instead.
public struct NestedJSONError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, in HTTPie's words.
    public enum Kind: String, Sendable {
        /// The path is not written in the nested-JSON syntax.
        case syntax = "Syntax"
        /// The path treats a value as the wrong type (a key on an array, an index on a string…).
        case type = "Type"
        /// The path is well formed and well typed, but its value cannot be used (a negative index…).
        case value = "Value"
    }

    /// The kind of error, as HTTPie names it.
    public var kind: Kind
    /// HTTPie's message for it.
    public var message: String
    /// The field name as written (its HTTPie spelling).
    public var key: String
    /// The characters of `key` the error is about, as offsets; `nil` when it is about the whole body.
    /// It may end one past `key` when something is missing at its end, as HTTPie's carets do.
    public var highlight: Range<Int>?

    /// An error about `highlight` in `key`.
    public init(_ kind: Kind, _ message: String, key: String, highlight: Range<Int>?) {
        self.kind = kind
        self.message = message
        self.key = key
        self.highlight = highlight
    }

    public var description: String {
        var text = "\(kind.rawValue) error in the JSON path \"\(key)\""
        if let highlight {
            let characters = Array(key)
            if highlight.lowerBound >= characters.count {
                text += " at its end (column \(highlight.lowerBound + 1))"
            } else {
                let part = String(characters[highlight.lowerBound..<min(highlight.upperBound, characters.count)])
                text += " at \"\(part)\" (column \(highlight.lowerBound + 1))"
            }
        }
        return text + ": " + message
    }
}
