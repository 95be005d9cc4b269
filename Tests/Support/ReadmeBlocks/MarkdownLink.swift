import Foundation

/// One inline link of a Markdown file (`[the C library](docs/c.md#install)`), outside code.
///
/// Only the inline form is read, as the documentation writes its links; reference-style links,
/// autolinks (`<https://…>`) and DocC's `<doc:Article>` (which DocC itself checks) are not.
public struct MarkdownLink: Sendable, Equatable {
    /// The text between `(` and `)`, without a title.
    public var target: String
    /// The 1-based line it is on.
    public var line: Int

    public init(target: String, line: Int) {
        self.target = target
        self.line = line
    }

    /// Points outside the repository: it has a scheme (`https:`, `mailto:`).
    public var isExternal: Bool {
        guard let colon = target.firstIndex(of: ":") else { return false }
        return target[..<colon].allSatisfy { $0.isLetter || $0.isNumber || $0 == "+" || $0 == "." || $0 == "-" }
    }

    /// The file part (`docs/c.md`), empty for a link within the same file (`#install`).
    public var file: String {
        String(target.prefix { $0 != "#" })
    }

    /// The part after `#`, or `nil` when there is none.
    public var anchor: String? {
        target.firstIndex(of: "#").map { String(target[target.index(after: $0)...]) }
    }

    /// The links on one line of prose, code spans skipped; `inCodeSpan` carries a code span that
    /// goes on to the next line of the paragraph (`` `pip `` then `` install` ``).
    static func links(in line: Substring, number: Int, inCodeSpan: inout Bool) -> [MarkdownLink] {
        outsideCodeSpans(line, inCodeSpan: &inCodeSpan).matches(of: Self.pattern).map {
            MarkdownLink(target: String($0.output.1), line: number)
        }
    }

    /// `text` with each `[text](target)` replaced by its text, as a heading renders it.
    static func replacingLinksWithTheirText(in text: String) -> String {
        text.replacing(#/\[([^\]]*)\]\([^)\s]*(?:\s+"[^"]*")?\)/#) { String($0.output.1) }
    }

    /// `](target)` or `](target "title")`: the target is group 1.
    private static var pattern: Regex<(Substring, Substring)> { #/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/# }

    /// `line` with every code span (`` `…` ``) blanked, so a link written as code is not read.
    private static func outsideCodeSpans(_ line: Substring, inCodeSpan: inout Bool) -> String {
        var result = ""
        for character in line {
            if character == "`" { inCodeSpan.toggle() }
            result.append(inCodeSpan || character == "`" ? " " : character)
        }
        return result
    }
}
