import Foundation

/// One ATX heading of a Markdown file (`## C library: libcourier.so`) and the anchor GitHub gives it,
/// so a `file.md#anchor` link can be checked against the headings it may point to.
public struct MarkdownHeading: Sendable, Equatable {
    /// The heading's text, without its `#`s.
    public var text: String
    /// The 1-based line it is on.
    public var line: Int

    /// The heading on `line`, or `nil` when the line is not one (`#include`, `#hashtag`).
    public init?(line: Substring, number: Int) {
        let hashes = line.prefix { $0 == "#" }
        guard (1...6).contains(hashes.count), line.dropFirst(hashes.count).first == " " else { return nil }
        text = line.dropFirst(hashes.count).trimmingCharacters(in: .whitespaces)
        self.line = number
    }

    /// GitHub's anchor: the text as it renders (code spans and links reduced to their text),
    /// lowercased, every character but letters, digits, spaces, `-` and `_` dropped, spaces made `-`.
    public var anchor: String {
        let rendered = MarkdownLink.replacingLinksWithTheirText(in: text).replacingOccurrences(of: "`", with: "")
        var result = ""
        for character in rendered.lowercased() {
            if character == " " {
                result.append("-")
            } else if character.isLetter || character.isNumber || character == "-" || character == "_" {
                result.append(character)
            }
        }
        return result
    }
}
