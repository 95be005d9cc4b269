import Foundation

/// Splits an `ITEM` argument at its separator, as HTTPie does, and unescapes it.
///
/// The separator is the earliest one in the argument that is not escaped; at one position the
/// longest wins, so `a:=1` is raw JSON, not the header `a` with value `=1`. A backslash before a
/// separator character (or before another backslash) makes it literal, in the name and in the
/// value: `a\:b==c` is the query item `a:b=c`. A backslash before anything else stays as it is.
/// A data field's name is kept as a `FieldName`, which a JSON body reads as a nested path.
public enum RequestItemParser {
    /// The separators, longest first so that a longer one wins at the same position.
    static let separators = [":=@", "==@", "=@", ":@", "==", ":=", "@", "=", ":", ";"]

    /// The characters a backslash escapes.
    static let specialCharacters: Set<Character> = [":", "=", "@", ";", "\\"]

    /// The separators of data fields, whose name may be empty.
    static let dataSeparators: Set<String> = ["=", "=@", ":=", ":=@"]

    /// Parses one argument into an item.
    ///
    /// - Parameter readFile: reads the text of a file for `name=@file`, `name:=@file`, `name==@file`
    ///   and `Name:@file`.
    /// - Throws: `RequestItemError` naming the argument, when it has no separator, no name, or a bad value.
    public static func parse(
        _ argument: String, readFile: (String) throws -> String = readTextFile
    ) throws -> RequestItem {
        let tokens = tokenize(argument)
        guard let (nameTokens, separator, value) = split(tokens) else {
            throw RequestItemError(
                argument: argument,
                reason: "it is not a request item (Name:Value, name==value, name=value, name:=json or field@path)")
        }
        let name = nameTokens.map(\.literal).joined()
        // A data field may have an empty name, as in HTTPie (`=x` is the key "", `:=[1]` too).
        let field = FieldName(spelling: nameTokens.map(\.spelling).joined())
        guard !name.isEmpty || dataSeparators.contains(separator) else {
            throw RequestItemError(argument: argument, reason: "the part before \"\(separator)\" is empty")
        }
        switch separator {
        case ":":
            return value.isEmpty ? .removedHeader(name: name) : .header(name: name, value: value)
        case ";":
            guard value.isEmpty else {
                throw RequestItemError(
                    argument: argument,
                    reason: "\"Name;\" sends an empty header and takes no value; write \"Name:Value\" for a value")
            }
            return .emptyHeader(name: name)
        case "==":
            return .query(name: name, value: value)
        case "==@":
            return .query(name: name, value: withoutTrailingNewlines(try read(value, for: argument, with: readFile)))
        case ":@":
            return .header(name: name, value: withoutTrailingNewlines(try read(value, for: argument, with: readFile)))
        case "=":
            return .dataField(name: field, value: value)
        case "=@":
            return .dataField(name: field, value: try read(value, for: argument, with: readFile))
        case ":=":
            return .rawJSONField(name: field, json: try checkedJSON(value, argument: argument))
        case ":=@":
            return .rawJSONField(
                name: field, json: try checkedJSON(try read(value, for: argument, with: readFile), argument: argument))
        default:
            return try file(field: name, spec: value, argument: argument)
        }
    }

    /// The text of the file at `path`, for `=@`, `:=@`, `==@` and `:@` items; a leading `~/` is
    /// the home directory, as HTTPie expands it (the shell does not, inside `q==@~/f`).
    public static func readTextFile(_ path: String) throws -> String {
        var path = path
        if path.hasPrefix("~/"), let home = ProcessInfo.processInfo.environment["HOME"] {
            path = home + path.dropFirst()
        }
        return try String(contentsOfFile: path, encoding: .utf8)
    }

    /// A query value or header read from a file loses its trailing line feeds, as HTTPie 3.2's
    /// `==@` and `:@` do (`rstrip('\n')`): a file saved by an editor ends in one. A body field
    /// (`=@`) keeps the file's text whole.
    /// Works on bytes, not characters, so a CRLF ending keeps its CR as HTTPie's does.
    static func withoutTrailingNewlines(_ text: String) -> String {
        var bytes = Substring(text).utf8[...]
        while bytes.last == UInt8(ascii: "\n") { bytes = bytes.dropLast() }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A piece of an argument: text as written, or one character that was escaped with a backslash.
    enum Token: Equatable {
        case text(String)
        case escaped(Character)

        var literal: String {
            switch self {
            case .text(let text): text
            case .escaped(let character): String(character)
            }
        }

        /// The token as HTTPie keeps it in a key: an escaped separator plain, an escaped backslash
        /// still escaped (see `FieldName.spelling`).
        var spelling: String {
            switch self {
            case .text(let text): text
            case .escaped(let character): character == "\\" ? "\\\\" : String(character)
            }
        }
    }

    /// The argument as text runs and escaped characters; an escaped character never starts a separator.
    static func tokenize(_ argument: String) -> [Token] {
        var tokens: [Token] = []
        var current = ""
        var characters = argument.makeIterator()
        while let character = characters.next() {
            guard character == "\\" else {
                current.append(character)
                continue
            }
            guard let next = characters.next() else {
                current.append("\\")
                break
            }
            if specialCharacters.contains(next) {
                tokens.append(.text(current))
                tokens.append(.escaped(next))
                current = ""
            } else {
                current.append("\\")
                current.append(next)
            }
        }
        tokens.append(.text(current))
        return tokens
    }

    /// The name's tokens, the separator and the value at the earliest unescaped separator, or
    /// `nil` when there is none.
    static func split(_ tokens: [Token]) -> (name: [Token], separator: String, value: String)? {
        var name: [Token] = []
        for (index, token) in tokens.enumerated() {
            guard case .text(let text) = token, let (range, separator) = earliestSeparator(in: text) else {
                name.append(token)
                continue
            }
            name.append(.text(String(text[..<range.lowerBound])))
            let value = String(text[range.upperBound...]) + tokens[(index + 1)...].map(\.literal).joined()
            return (name, separator, value)
        }
        return nil
    }

    private static func earliestSeparator(in text: String) -> (Range<String.Index>, String)? {
        var index = text.startIndex
        while index < text.endIndex {
            for separator in separators where text[index...].hasPrefix(separator) {
                return (index..<text.index(index, offsetBy: separator.count), separator)
            }
            index = text.index(after: index)
        }
        return nil
    }

    private static func read(
        _ path: String, for argument: String, with readFile: (String) throws -> String
    ) throws -> String {
        do {
            return try readFile(path)
        } catch {
            throw RequestItemError(argument: argument, reason: "cannot read \"\(path)\" as UTF-8 text")
        }
    }

    /// The JSON text trimmed, when it is valid JSON. A NUL is never valid JSON (RFC 8259 allows no
    /// raw control character), but Foundation's parser can stop at one and accept what came before
    /// it, so it is refused first; the text kept is the text checked.
    private static func checkedJSON(_ text: String, argument: String) throws -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.unicodeScalars.contains("\u{0}"),
            (try? JSONSerialization.jsonObject(with: Data(trimmed.utf8), options: [.fragmentsAllowed])) != nil
        else {
            throw RequestItemError(argument: argument, reason: "the value after \":=\" is not valid JSON")
        }
        return trimmed
    }

    /// `path` or `path;type=MIME`, as HTTPie writes a file's content type.
    private static func file(field: String, spec: String, argument: String) throws -> RequestItem {
        guard !spec.isEmpty else {
            throw RequestItemError(argument: argument, reason: "no file path after \"@\"")
        }
        if let marker = spec.range(of: ";type=", options: .backwards) {
            let type = String(spec[marker.upperBound...])
            guard !type.isEmpty else {
                throw RequestItemError(argument: argument, reason: "no content type after \";type=\"")
            }
            return .file(field: field, path: String(spec[..<marker.lowerBound]), type: type)
        }
        return .file(field: field, path: spec, type: nil)
    }
}

/// A request item that could not be parsed, with the argument quoted so the user sees which one.
public struct RequestItemError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The argument as given on the command line.
    public var argument: String
    /// What is wrong with it.
    public var reason: String

    public var description: String { "invalid request item \"\(argument)\": \(reason)" }
}
