import Foundation

/// One fenced code block of a Markdown file: its language, where it starts, and its text.
public struct FencedBlock: Sendable, Equatable {
    /// The fence's info string, lowercased (`swift`, `sh`, `text`), or `""` for a bare fence.
    public var language: String
    /// The 1-based line of the opening fence, for messages that point into the file.
    public var line: Int
    /// The lines between the fences, joined with `\n`, without a final newline.
    public var code: String
    /// The nearest heading above the block (`## Python`), or `""` before the first one.
    public var heading: String
    /// The HTML comment on the line just before the fence (`<!-- output -->`), if there is one.
    public var marker: String?

    public init(language: String, line: Int, code: String, heading: String, marker: String? = nil) {
        self.language = language
        self.line = line
        self.code = code
        self.heading = heading
        self.marker = marker
    }

    /// The first non-empty line, trimmed: how a failure names the block besides its line number.
    public var firstLine: String {
        code.split(separator: "\n").lazy.map { $0.trimmingCharacters(in: .whitespaces) }.first { !$0.isEmpty } ?? ""
    }

    /// Marked as output or illustration: `<!-- output -->` or `<!-- output: why -->` right before the fence.
    public var isMarkedAsOutput: Bool {
        guard let marker else { return false }
        return marker == "<!-- output -->" || (marker.hasPrefix("<!-- output: ") && marker.hasSuffix(" -->"))
    }

    /// The shell commands of an `sh` block, in order (empty for other languages).
    public var shellCommands: [ShellCommand] {
        ShellCommand.commands(in: self)
    }
}
