public import Courier

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Splits a POSIX shell command line into words the way bash does before it runs a simple
/// pipeline, for reading pasted curl commands: quoting, escapes and line continuations only.
///
/// Understood: `'…'`, `"…"` (with `\"`, `\\`, `\$`, `` \` `` and `\` + newline), bash's
/// `$'…'` (ANSI-C escapes: `\n`, `\t`, `\xHH`, `\uHHHH`, `\NNN` octal…), a backslash outside
/// quotes, `\` + newline as a continuation, and `#` comments. The operators `|`, `;`, `{` and `}`
/// are tokens of their own. Anything that would make the shell substitute or redirect (`$VAR`,
/// `$(…)`, backticks, `<`, `>`, `&`, globs are left alone) is refused with
/// ``CurlImportError/unsupportedShellSyntax(_:)``, so a word is never silently different from
/// what the shell would have passed.
struct ShellWords {
    /// A word's bytes (a `$'\xff'` word need not be UTF-8), or an operator.
    enum Token: Equatable {
        case word([UInt8])
        case `operator`(String)
    }

    private(set) var tokens: [Token] = []

    init(_ line: String) throws(CurlImportError) {
        var scanner = Scanner(bytes: Array(line.utf8))
        try scanner.scan()
        tokens = scanner.tokens
    }

    private struct Scanner {
        let bytes: [UInt8]
        var index = 0
        var tokens: [Token] = []
        var word: [UInt8] = []
        /// Whether a word is being built, even an empty one (`''` is a word).
        var inWord = false

        init(bytes: [UInt8]) { self.bytes = bytes }

        var current: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func finishWord() {
            if inWord { tokens.append(.word(word)) }
            word = []
            inWord = false
        }

        mutating func scan() throws(CurlImportError) {
            while let byte = current {
                switch byte {
                case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                    finishWord()
                    index += 1
                case UInt8(ascii: "#") where !inWord:
                    while let next = current, next != UInt8(ascii: "\n") {
                        index += 1
                        _ = next
                    }
                case UInt8(ascii: "\\"):
                    index += 1
                    guard let escaped = current else {
                        inWord = true
                        word.append(byte)
                        continue
                    }
                    index += 1
                    if escaped == UInt8(ascii: "\n") { continue }
                    if escaped == UInt8(ascii: "\r"), current == UInt8(ascii: "\n") {
                        index += 1
                        continue
                    }
                    inWord = true
                    word.append(escaped)
                case UInt8(ascii: "'"):
                    inWord = true
                    try singleQuoted()
                case UInt8(ascii: "\""):
                    inWord = true
                    try doubleQuoted()
                case UInt8(ascii: "$"):
                    if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "'") {
                        inWord = true
                        index += 2
                        try ansiQuoted()
                    } else if !startsExpansion(at: index + 1)
                        && !(index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "\""))
                    {
                        inWord = true
                        word.append(byte)
                        index += 1
                    } else {
                        throw .unsupportedShellSyntax("a $ expansion outside single quotes (\(context()))")
                    }
                case UInt8(ascii: "`"):
                    throw .unsupportedShellSyntax("a backtick command substitution (\(context()))")
                case UInt8(ascii: "|"), UInt8(ascii: ";"):
                    finishWord()
                    if byte == UInt8(ascii: "|"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "|") {
                        throw .unsupportedShellSyntax("|| between commands")
                    }
                    tokens.append(.operator(String(UnicodeScalar(byte))))
                    index += 1
                case UInt8(ascii: "{") where !inWord, UInt8(ascii: "}") where !inWord:
                    // Braces group commands only as whole words (`{ a; b; }`).
                    let next = index + 1 < bytes.count ? bytes[index + 1] : UInt8(ascii: " ")
                    if [
                        UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: ";"), UInt8(ascii: "|"),
                    ].contains(next) {
                        tokens.append(.operator(String(UnicodeScalar(byte))))
                        index += 1
                    } else {
                        inWord = true
                        word.append(byte)
                        index += 1
                    }
                case UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "&"), UInt8(ascii: "("), UInt8(ascii: ")"):
                    throw .unsupportedShellSyntax(
                        "\(UnicodeScalar(byte)) (redirection, background or subshell: \(context()))")
                default:
                    inWord = true
                    word.append(byte)
                    index += 1
                }
            }
            finishWord()
        }

        /// Whether a `$` followed by the byte at `position` expands (a name, `{`, `(`, a digit or
        /// a special parameter); otherwise bash keeps the `$` as it is.
        func startsExpansion(at position: Int) -> Bool {
            guard position < bytes.count else { return false }
            let next = bytes[position]
            return (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(next)
                || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(next)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(next) || Array("_{(@*#?$!-".utf8).contains(next)
        }

        /// Up to 20 characters around the current position, for error messages.
        func context() -> String {
            let start = max(0, index - 10)
            let end = min(bytes.count, index + 10)
            return String(decoding: bytes[start..<end], as: UTF8.self)
        }

        mutating func singleQuoted() throws(CurlImportError) {
            index += 1
            while let byte = current {
                index += 1
                if byte == UInt8(ascii: "'") { return }
                word.append(byte)
            }
            throw .unterminatedQuote("'")
        }

        mutating func doubleQuoted() throws(CurlImportError) {
            index += 1
            while let byte = current {
                index += 1
                switch byte {
                case UInt8(ascii: "\""):
                    return
                case UInt8(ascii: "\\"):
                    guard let escaped = current else { throw .unterminatedQuote("\"") }
                    index += 1
                    switch escaped {
                    case UInt8(ascii: "\n"): break
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "$"), UInt8(ascii: "`"):
                        word.append(escaped)
                    default: word += [byte, escaped]
                    }
                case UInt8(ascii: "$") where !startsExpansion(at: index):
                    word.append(byte)
                case UInt8(ascii: "$"), UInt8(ascii: "`"):
                    throw .unsupportedShellSyntax("\(UnicodeScalar(byte)) inside double quotes (\(context()))")
                default:
                    word.append(byte)
                }
            }
            throw .unterminatedQuote("\"")
        }

        /// bash's `$'…'`, after the opening quote.
        mutating func ansiQuoted() throws(CurlImportError) {
            while let byte = current {
                index += 1
                if byte == UInt8(ascii: "'") { return }
                guard byte == UInt8(ascii: "\\") else {
                    word.append(byte)
                    continue
                }
                guard let escape = current else { break }
                index += 1
                if let control = PrintfFormat.controlByte(escapedBy: escape) {
                    word.append(control)
                    continue
                }
                switch escape {
                case UInt8(ascii: "e"), UInt8(ascii: "E"): word.append(0x1B)
                case UInt8(ascii: "x"): word.append(UInt8(digits(radix: 16, atMost: 2, or: escape)))
                case UInt8(ascii: "u"), UInt8(ascii: "U"):
                    let value = digits(radix: 16, atMost: escape == UInt8(ascii: "u") ? 4 : 8, or: escape)
                    guard let scalar = Unicode.Scalar(value) else {
                        throw .unsupportedShellSyntax("\\\(UnicodeScalar(escape)) \(value) is not a Unicode scalar")
                    }
                    word += Array(String(scalar).utf8)
                case UInt8(ascii: "0")...UInt8(ascii: "7"):
                    index -= 1
                    word.append(UInt8(truncatingIfNeeded: digits(radix: 8, atMost: 3, or: escape)))
                case UInt8(ascii: "c"):
                    throw .unsupportedShellSyntax("\\c control escapes in $'…'")
                default:
                    // \\, \', \" and \? stand for themselves; bash keeps an unknown escape whole.
                    if [UInt8(ascii: "\\"), UInt8(ascii: "'"), UInt8(ascii: "\""), UInt8(ascii: "?")].contains(escape) {
                        word.append(escape)
                    } else {
                        word += [byte, escape]
                    }
                }
            }
            throw .unterminatedQuote("$'")
        }

        /// Up to `atMost` digits in `radix`; with none, the escape letter itself (as bash keeps `\x`).
        mutating func digits(radix: Int, atMost: Int, or letter: UInt8) -> UInt32 {
            var value: UInt32 = 0
            var count = 0
            while count < atMost, let byte = current, let digit = Int(String(UnicodeScalar(byte)), radix: radix) {
                value = value * UInt32(radix) + UInt32(digit)
                index += 1
                count += 1
            }
            if count == 0 {
                word += [UInt8(ascii: "\\")]
                return UInt32(letter)
            }
            return value
        }
    }
}
