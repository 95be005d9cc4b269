import Foundation

/// The regions of a source file marked for the documentation: the lines between
/// `<comment> README: name` and `<comment> README: end`, with their common indentation removed.
///
/// The marker keeps the name it had when README.md held every example; a region may now appear in
/// any document of ``DocumentationSet``. The same markers serve Swift (`//`) and Python (`#`)
/// sources, so a block can be matched against the compiled or executed code it was copied from.
public enum SnippetRegions {
    /// One marked region.
    public struct Snippet: Sendable, Equatable {
        /// The name after `README:`.
        public var name: String
        /// The dedented lines, joined with `\n`.
        public var code: String
    }

    /// The marked regions of `source`, in order; `comment` is the line-comment token (`//`, `#`).
    public static func snippets(in source: String, comment: String = "//") -> [Snippet] {
        let open = "\(comment) README: "
        var result: [Snippet] = []
        var current: (name: String, lines: [Substring])?
        for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed == "\(open)end", let region = current {
                let indent =
                    region.lines.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
                    .map { $0.prefix { $0 == " " }.count }.min() ?? 0
                result.append(
                    Snippet(
                        name: region.name,
                        code: region.lines.map { String($0.dropFirst(min(indent, $0.count))) }.joined(separator: "\n")))
                current = nil
            } else if trimmed.hasPrefix(open) {
                current = (String(trimmed.dropFirst(open.count)), [])
            } else if current != nil {
                current?.lines.append(line)
            }
        }
        return result
    }
}
