public import Foundation

/// One Markdown file of the documentation set, read as its fenced code blocks, its headings and
/// its links, so tests can check each block against the code that compiles or runs it and each
/// link against the file or heading it names.
///
/// A block opens with a line that starts with three backticks (the rest of the line is its
/// language) and closes with a line of exactly three backticks. Indented fences are not used in
/// the documentation and are not recognised.
public struct MarkdownDocument: Sendable {
    /// The file's path from the repository's root (`docs/c.md`), which failures name.
    public var path: String
    /// Every fenced block, in file order.
    public var blocks: [FencedBlock]
    /// Every heading outside the fenced blocks, in file order.
    public var headings: [MarkdownHeading]
    /// Every inline link outside the fenced blocks and code spans, in file order.
    public var links: [MarkdownLink]

    /// Parses `text`; an unclosed block at the end is kept, so it cannot hide from the checks.
    public init(path: String, text: String) {
        var blocks: [FencedBlock] = []
        var headings: [MarkdownHeading] = []
        var links: [MarkdownLink] = []
        var heading = ""
        var previous: Substring = ""
        var open: (language: String, line: Int, marker: String?, lines: [Substring])?
        var inCodeSpan = false
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if var block = open {
                if line == "```" {
                    blocks.append(
                        FencedBlock(
                            language: block.language, line: block.line,
                            code: block.lines.joined(separator: "\n"), heading: heading, marker: block.marker))
                    open = nil
                } else {
                    block.lines.append(line)
                    open = block
                }
            } else if line.hasPrefix("```") {
                inCodeSpan = false
                let marker = previous.trimmingCharacters(in: .whitespaces)
                open = (
                    line.dropFirst(3).trimmingCharacters(in: .whitespaces).lowercased(), index + 1,
                    marker.hasPrefix("<!--") ? marker : nil, []
                )
            } else {
                if line.hasPrefix("#") {
                    heading = String(line)
                    if let parsed = MarkdownHeading(line: line, number: index + 1) { headings.append(parsed) }
                }
                // A code span may go on to the next line, never past the paragraph.
                if line.trimmingCharacters(in: .whitespaces).isEmpty || line.hasPrefix("#") { inCodeSpan = false }
                links += MarkdownLink.links(in: line, number: index + 1, inCodeSpan: &inCodeSpan)
            }
            previous = line
        }
        if let block = open {
            blocks.append(
                FencedBlock(
                    language: block.language, line: block.line,
                    code: block.lines.joined(separator: "\n"), heading: heading, marker: block.marker))
        }
        self.path = path
        self.blocks = blocks
        self.headings = headings
        self.links = links
    }

    /// The file at `path` under `repository`.
    public static func load(_ path: String, repository: URL) throws -> MarkdownDocument {
        MarkdownDocument(
            path: path, text: try String(contentsOf: repository.appendingPathComponent(path), encoding: .utf8))
    }

    /// Where `line` is, as failures write it: `docs/c.md:12`.
    public func place(_ line: Int) -> String {
        "\(path):\(line)"
    }

    /// The blocks fenced as `languages`, in file order.
    public func blocks(_ languages: Set<String>) -> [FencedBlock] {
        blocks.filter { languages.contains($0.language) }
    }

    /// The commands of every shell block not marked as output, in file order.
    public var shellCommands: [ShellCommand] {
        blocks(FencedBlock.shellLanguages).filter { !$0.isMarkedAsOutput }.flatMap(\.shellCommands)
    }

    /// The anchors of the headings as GitHub makes them, a repeated one numbered (`usage`, `usage-1`).
    public var anchors: Set<String> {
        var seen: [String: Int] = [:]
        var result: Set<String> = []
        for heading in headings {
            let count = seen[heading.anchor, default: 0]
            seen[heading.anchor] = count + 1
            result.insert(count == 0 ? heading.anchor : "\(heading.anchor)-\(count)")
        }
        return result
    }
}

extension FencedBlock {
    /// The fence languages read as shell commands.
    public static let shellLanguages: Set<String> = ["sh", "bash", "shell"]
}
