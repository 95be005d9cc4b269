/// A data field's name read as HTTPie 3's nested-JSON path: `user[tags][]`, `kids[0][name]`, `[]`.
///
/// The grammar is HTTPie's: a root (a key, `[index]` or `[]`, or nothing for the key `""`),
/// then any number of `[key]`, `[index]` and `[]`. A backslash makes `[`, `]` or a backslash
/// literal; before anything else it stays. A bracket part that is an integer is an index; escaping
/// its first digit (`[\1]`) makes it the key `"1"`. A root written as a number is a key, spelled as
/// written (HTTPie would respell `007` as `7`; `courier` never changes a key the user wrote).
public struct NestedJSONPath: Sendable, Equatable {
    /// One step from a value into the container under it.
    public struct Step: Sendable, Equatable {
        /// What the step does.
        public enum Action: Sendable, Equatable {
            /// The member with this key, in an object.
            case key(String)
            /// The element at this position, in an array; may be negative or `Int.max` for a
            /// number too large, which applying the path refuses.
            case index(Int)
            /// A new element at the end of an array.
            case append
        }

        /// What the step does.
        public var action: Action
        /// Whether this is the root step, written without brackets when it is a key.
        public var isRoot: Bool
        /// Where the step is written in the path (character offsets), for errors.
        public var range: Range<Int>
        /// Where an index's number is written, for errors about its value.
        public var numberRange: Range<Int>?

        /// The step written back as HTTPie writes it in its messages (a root key without brackets).
        public var reconstructed: String {
            switch action {
            case .key(let key): isRoot ? key : "[" + key + "]"
            case .index(let index): "[\(index)]"
            case .append: "[]"
            }
        }
    }

    /// The path as written (a field name's HTTPie spelling).
    public var source: String
    /// The steps, root first; never empty.
    public var steps: [Step]

    /// Reads `source` as a path.
    ///
    /// - Throws: `NestedJSONError` of kind `.syntax`, with HTTPie's message (`Expecting ']'`)
    ///   and the part of `source` it is about.
    public init(parsing source: String) throws(NestedJSONError) {
        self.source = source
        var parser = Parser(source: source, tokens: Self.tokenize(Array(source)))
        steps = try parser.parse()
    }

    /// A piece of a path: a bracket, or the text between brackets.
    struct Token: Equatable {
        enum Kind: Equatable {
            case text(String)
            /// An unescaped integer, kept as written.
            case number(String)
            case leftBracket
            case rightBracket
        }

        var kind: Kind
        var range: Range<Int>
    }

    /// Splits a path into brackets and text, resolving backslash escapes as HTTPie does.
    static func tokenize(_ characters: [Character]) -> [Token] {
        var tokens: [Token] = []
        var buffer = ""
        var bufferStart = 0
        var escapes = 0
        func flush(at end: Int) {
            guard !buffer.isEmpty else { return }
            let kind: Token.Kind
            if escapes == 0, isInteger(Substring(buffer)) {
                kind = .number(buffer)
            } else if escapes == 0, buffer.first == "\\", isInteger(buffer.dropFirst()) {
                kind = .text(String(buffer.dropFirst()))
            } else {
                kind = .text(buffer)
            }
            tokens.append(Token(kind: kind, range: bufferStart..<end))
            buffer = ""
            escapes = 0
        }
        var cursor = 0
        while cursor < characters.count {
            let character = characters[cursor]
            if character == "[" || character == "]" {
                flush(at: cursor)
                tokens.append(Token(kind: character == "[" ? .leftBracket : .rightBracket, range: cursor..<cursor + 1))
                cursor += 1
                bufferStart = cursor
                continue
            }
            if character == "\\", cursor + 1 < characters.count {
                let next = characters[cursor + 1]
                if next == "[" || next == "]" || next == "\\" {
                    escapes += 1
                } else {
                    buffer.append("\\")
                }
                buffer.append(next)
                cursor += 2
                continue
            }
            buffer.append(character)
            cursor += 1
        }
        flush(at: cursor)
        return tokens
    }

    /// Whether `text` is an optional sign and ASCII digits (what HTTPie takes for an integer,
    /// without the white space and underscores Python's `int()` also accepts).
    static func isInteger(_ text: Substring) -> Bool {
        let digits = text.first == "-" || text.first == "+" ? text.dropFirst() : text
        return !digits.isEmpty && digits.allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// A recursive-descent reading of the tokens, with HTTPie's `expect` errors.
    struct Parser {
        let source: String
        let tokens: [Token]
        var cursor = 0

        enum Expected: Equatable {
            case text, number, leftBracket, rightBracket

            var name: String {
                switch self {
                case .text: "a text"
                case .number: "a number"
                case .leftBracket: "'['"
                case .rightBracket: "']'"
                }
            }

            func matches(_ kind: Token.Kind) -> Bool {
                switch (self, kind) {
                case (.text, .text), (.number, .number), (.leftBracket, .leftBracket), (.rightBracket, .rightBracket):
                    true
                default: false
                }
            }
        }

        mutating func parse() throws(NestedJSONError) -> [Step] {
            var steps = [try root()]
            while cursor < tokens.count {
                let open = try expect(.leftBracket)
                let inside = try expect(.text, .number, .rightBracket)
                switch inside.kind {
                case .rightBracket:
                    steps.append(
                        Step(action: .append, isRoot: false, range: open.range.lowerBound..<inside.range.upperBound))
                case .text(let key):
                    let close = try expect(.rightBracket)
                    steps.append(
                        Step(action: .key(key), isRoot: false, range: open.range.lowerBound..<close.range.upperBound))
                case .number(let number):
                    let close = try expect(.rightBracket)
                    steps.append(
                        Step(
                            action: .index(Self.index(number)), isRoot: false,
                            range: open.range.lowerBound..<close.range.upperBound, numberRange: inside.range))
                case .leftBracket:
                    preconditionFailure("expect(_:) returned a kind it was not asked for")
                }
            }
            return steps
        }

        /// The root: a key (text or a number, spelled as written), `[index]`, `[]`, or nothing.
        mutating func root() throws(NestedJSONError) -> Step {
            guard !tokens.isEmpty else {
                return Step(action: .key(""), isRoot: true, range: 0..<0)
            }
            let first = try expect(.text, .number, .leftBracket)
            switch first.kind {
            case .text(let key), .number(let key):
                return Step(action: .key(key), isRoot: true, range: first.range)
            case .leftBracket:
                let inside = try expect(.number, .rightBracket)
                guard case .number(let number) = inside.kind else {
                    return Step(action: .append, isRoot: true, range: first.range.lowerBound..<inside.range.upperBound)
                }
                let close = try expect(.rightBracket)
                return Step(
                    action: .index(Self.index(number)), isRoot: true,
                    range: first.range.lowerBound..<close.range.upperBound, numberRange: inside.range)
            case .rightBracket:
                preconditionFailure("expect(_:) returned a kind it was not asked for")
            }
        }

        /// The next token when it is one of `kinds`; otherwise HTTPie's "Expecting …" error about
        /// that token, or about the place just past the end when there is none.
        mutating func expect(_ kinds: Expected...) throws(NestedJSONError) -> Token {
            var highlight: Range<Int>?
            if cursor < tokens.count {
                let token = tokens[cursor]
                cursor += 1
                if kinds.contains(where: { $0.matches(token.kind) }) { return token }
                highlight = token.range
            } else if let last = tokens.last {
                highlight = last.range.upperBound..<last.range.upperBound + 1
            }
            let names = kinds.map(\.name)
            let expected =
                names.count == 1 ? names[0] : names.dropLast().joined(separator: ", ") + " or " + names[names.count - 1]
            throw NestedJSONError(.syntax, "Expecting \(expected)", key: source, highlight: highlight)
        }

        /// The integer written, or `Int.max` when it does not fit (too large an index either way).
        static func index(_ number: String) -> Int {
            if let value = Int(number) { return value }
            return number.first == "-" ? Int.min : Int.max
        }
    }
}
