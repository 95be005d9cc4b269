/// Which parts of the exchange are printed: `--print HBhbm`, as in HTTPie 3.2.
public struct PrintSelection: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// `H`: the request line and headers.
    public static let requestHead = PrintSelection(rawValue: 1 << 0)
    /// `B`: the request body.
    public static let requestBody = PrintSelection(rawValue: 1 << 1)
    /// `h`: the status line and response headers.
    public static let responseHead = PrintSelection(rawValue: 1 << 2)
    /// `b`: the response body.
    public static let responseBody = PrintSelection(rawValue: 1 << 3)
    /// `m`: the response's metadata, HTTPie 3.2's `Elapsed time: 0.0123456789s` line.
    public static let metadata = PrintSelection(rawValue: 1 << 4)
    /// `HBhb`: everything.
    public static let all: PrintSelection = [.requestHead, .requestBody, .responseHead, .responseBody]

    /// Parses letters from `HBhbm`, in any order; an empty string selects nothing.
    ///
    /// - Throws: `PrintSelectionError` for any other character.
    public init(letters: String) throws {
        self = []
        for letter in letters {
            switch letter {
            case "H": insert(.requestHead)
            case "B": insert(.requestBody)
            case "h": insert(.responseHead)
            case "b": insert(.responseBody)
            case "m": insert(.metadata)
            default: throw PrintSelectionError(letters: letters, letter: letter)
            }
        }
    }

    /// HTTPie's default: headers and body on a terminal, only the body when piped.
    public static func `default`(isTerminal: Bool) -> PrintSelection {
        isTerminal ? [.responseHead, .responseBody] : [.responseBody]
    }
}

/// A `--print` value with a letter other than `H`, `B`, `h` and `b`.
public struct PrintSelectionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The value given.
    public var letters: String
    /// The first letter that is not allowed.
    public var letter: Character

    public var description: String {
        "--print \"\(letters)\": \"\(letter)\" is not one of H (request headers), B (request body), h (response headers), b (response body), m (metadata)"
    }
}

/// What `--pretty` turns on: HTTPie's `all`, `colors`, `format` and `none`.
public enum PrettyMode: String, Sendable, CaseIterable {
    /// Indented JSON and colours.
    case all
    /// Colours only; the body keeps its layout.
    case colors
    /// Indented JSON only.
    case format
    /// Everything exactly as sent and received.
    case none

    /// HTTPie's default: `all` on a terminal, `none` when piped.
    public static func `default`(isTerminal: Bool) -> PrettyMode { isTerminal ? .all : .none }

    /// Whether JSON bodies are re-indented.
    public var formats: Bool { self == .all || self == .format }
    /// Whether output is coloured.
    public var colors: Bool { self == .all || self == .colors }
}
