import Foundation

/// One command of a shell block of the documentation, as a test runs it or ties it to a script.
///
/// Splitting is deliberately simple and matches how the documentation writes its blocks: a `#` that starts
/// a word outside quotes begins a comment, a line ending in `\` continues on the next, and `&&`
/// outside quotes separates two commands. Pipes stay inside one command.
public struct ShellCommand: Sendable, Equatable {
    /// The line of its document the command starts on.
    public var line: Int
    /// The command without its comment, continuations joined, without a trailing `&`.
    public var text: String
    /// The comment after it on its lines (`exit status 2`), empty when there is none.
    public var comment: String
    /// Ends with `&`: started in the background (`courier serve --port 8080 &`).
    public var isBackground: Bool

    public init(line: Int, text: String, comment: String = "", isBackground: Bool = false) {
        self.line = line
        self.text = text
        self.comment = comment
        self.isBackground = isBackground
    }

    /// The program each stage of the pipeline runs, normalised the way the tests run them:
    /// `swift run courier …` and `.build/debug/courier …` are `courier`, the product built by `swift build`,
    /// and leading variable assignments (`ROUNDS=3 Benchmarks/run.sh`) are not programs.
    public var programs: [String] {
        Self.split(text, on: "|").compactMap { stage in
            let words = Array(
                stage.split(separator: " ").map(String.init).drop { $0.wholeMatch(of: Self.assignment) != nil })
            guard let first = words.first else { return nil }
            if first == "swift", words.count > 2, words[1] == "run" { return words[2] }
            if first.hasPrefix(".build/debug/") { return String(first.dropFirst(".build/debug/".count)) }
            return first
        }
    }

    /// `NAME=value`, a variable set for the command that follows it.
    private static var assignment: Regex<Substring> { #/[A-Za-z_][A-Za-z0-9_]*=\S*/# }

    /// The exit status the document's comment states (`… exit status 2`), 0 when it states none.
    public var expectedStatus: Int32 {
        guard let range = comment.range(of: "exit status ") else { return 0 }
        return Int32(comment[range.upperBound...].prefix { $0.isNumber }) ?? 0
    }

    /// The commands of `block`, in order.
    static func commands(in block: FencedBlock) -> [ShellCommand] {
        guard FencedBlock.shellLanguages.contains(block.language) else { return [] }
        var result: [ShellCommand] = []
        var pending: (line: Int, text: String, comment: String)?
        for (offset, raw) in block.code.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let (code, comment) = Self.splitComment(String(raw))
            var text = code.trimmingCharacters(in: .whitespaces)
            let continues = text.hasSuffix("\\")
            if continues { text = String(text.dropLast()).trimmingCharacters(in: .whitespaces) }
            if var open = pending {
                open.text += text.isEmpty ? "" : " " + text
                open.comment += comment.isEmpty ? "" : (open.comment.isEmpty ? "" : " ") + comment
                pending = open
            } else if !text.isEmpty {
                pending = (block.line + 1 + offset, text, comment)
            }
            if !continues, let done = pending {
                for part in Self.split(done.text, on: "&&") {
                    let background = part.hasSuffix(" &")
                    let command = background ? String(part.dropLast(2)).trimmingCharacters(in: .whitespaces) : part
                    result.append(
                        ShellCommand(line: done.line, text: command, comment: done.comment, isBackground: background))
                }
                pending = nil
            }
        }
        return result
    }

    /// `line` split at the first `#` that starts a word outside quotes: the code, and the comment's text.
    static func splitComment(_ line: String) -> (code: String, comment: String) {
        var quote: Character?
        var previous: Character = " "
        for index in line.indices {
            let character = line[index]
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "'" || character == "\"" {
                quote = character
            } else if character == "#", previous == " " || previous == "\t" {
                return (String(line[..<index]), line[line.index(after: index)...].trimmingCharacters(in: .whitespaces))
            }
            previous = character
        }
        return (line, "")
    }

    /// `text` split on `separator` outside quotes, each part trimmed, empty parts dropped.
    static func split(_ text: String, on separator: String) -> [String] {
        var parts: [String] = []
        var current = ""
        var quote: Character?
        var rest = Substring(text)
        while let character = rest.first {
            if quote == nil, rest.hasPrefix(separator), !(separator == "|" && rest.hasPrefix("||")) {
                parts.append(current)
                current = ""
                rest = rest.dropFirst(separator.count)
                continue
            }
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "'" || character == "\"" {
                quote = character
            }
            current.append(character)
            rest = rest.dropFirst()
        }
        parts.append(current)
        return parts.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}
