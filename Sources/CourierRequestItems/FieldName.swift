/// The name of a data field (`name=value`, `name:=json`), kept as HTTPie spells it so that both
/// body kinds can read it their own way.
///
/// A form or multipart body sends the name as text, every escape resolved. A JSON body reads it
/// as a nested path (`user[tags][]`), and that syntax needs to know which backslashes the user
/// escaped: in `a\\[b]` the backslash is literal and `[` opens a key, in `a\[b]` the `[` is literal.
/// Resolving the item escapes first would lose that, so the spelling keeps an escaped backslash as
/// `\\` (separators escaped with a backslash are plain characters in it, as HTTPie keeps them).
public struct FieldName: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The name with separator escapes resolved and an escaped backslash still written `\\`.
    ///
    /// A lone backslash in it is always one the user left unescaped before an ordinary character,
    /// so a `\\` pair can only be an escaped backslash.
    public var spelling: String

    /// A name spelled as HTTPie spells it (see `spelling`).
    public init(spelling: String) { self.spelling = spelling }

    /// A name spelled as HTTPie spells it (see `spelling`).
    public init(stringLiteral value: String) { self.init(spelling: value) }

    /// The name as form and multipart bodies send it: every `\\` written as one backslash.
    public var text: String {
        var result = ""
        var characters = spelling.makeIterator()
        while let character = characters.next() {
            result.append(character)
            if character == "\\", let next = characters.next(), next != "\\" {
                result.append(next)
            }
        }
        return result
    }

    public var description: String { spelling }
}
