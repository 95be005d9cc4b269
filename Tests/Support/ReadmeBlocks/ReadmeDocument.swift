public import Foundation

/// README.md read as a list of fenced code blocks, so tests can check each one against the code
/// that compiles or runs it.
///
/// A block opens with a line that starts with three backticks (the rest of the line is its
/// language) and closes with a line of exactly three backticks. Indented fences are not used in
/// README.md and are not recognised.
public struct ReadmeDocument: Sendable {
    /// Every fenced block, in file order.
    public var blocks: [FencedBlock]

    /// Parses `text`; an unclosed block at the end is kept, so it cannot hide from the checks.
    public init(text: String) {
        var blocks: [FencedBlock] = []
        var heading = ""
        var previous: Substring = ""
        var open: (language: String, line: Int, marker: String?, lines: [Substring])?
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
                let marker = previous.trimmingCharacters(in: .whitespaces)
                open = (
                    line.dropFirst(3).trimmingCharacters(in: .whitespaces).lowercased(), index + 1,
                    marker.hasPrefix("<!--") ? marker : nil, []
                )
            } else if line.hasPrefix("#") {
                heading = String(line)
            }
            previous = line
        }
        if let block = open {
            blocks.append(
                FencedBlock(
                    language: block.language, line: block.line,
                    code: block.lines.joined(separator: "\n"), heading: heading, marker: block.marker))
        }
        self.blocks = blocks
    }

    /// The repository's README.md, found from `repository`.
    public static func load(repository: URL) throws -> ReadmeDocument {
        ReadmeDocument(text: try String(contentsOf: repository.appendingPathComponent("README.md"), encoding: .utf8))
    }

    /// The blocks fenced as `languages`, in file order.
    public func blocks(_ languages: Set<String>) -> [FencedBlock] {
        blocks.filter { languages.contains($0.language) }
    }

    /// The commands of every shell block not marked as output, in file order.
    public var shellCommands: [ShellCommand] {
        blocks(FencedBlock.shellLanguages).filter { !$0.isMarkedAsOutput }.flatMap(\.shellCommands)
    }
}

extension FencedBlock {
    /// The fence languages read as shell commands.
    public static let shellLanguages: Set<String> = ["sh", "bash", "shell"]
}
