import Foundation
import ReadmeBlocks

/// Checks the relative links of the documentation: each points to a file or directory of the
/// repository, and one with an `#anchor` into a Markdown file (or within its own) to a heading
/// of that file, as GitHub makes its anchors. A section moved to another document thus cannot
/// leave a dead link behind. Links with a scheme (`https:`, `doc:`) are not checked here.
struct DocumentLinks {
    let repository: URL

    /// One line per dead link of `document`: where it is (`docs/c.md:12`), the link, and what is missing.
    func failures(in document: MarkdownDocument) -> [String] {
        document.links.filter { !$0.isExternal }.compactMap { link in
            problem(with: link, in: document).map {
                "\(document.place(link.line)): the link `\(link.target)` \($0)"
            }
        }
    }

    /// The Markdown files `documents` link to that are not among them (`ARCHITECTURE.md`,
    /// `Fuzz/README.md`), in order: where a reader goes next, so their links are checked too.
    func linkedMarkdownFiles(of documents: [MarkdownDocument]) -> [String] {
        let own = Set(documents.map(\.path))
        var seen: Set<String> = []
        return documents.flatMap { document in
            document.links.filter { !$0.isExternal }.compactMap { target(of: $0, in: document) }
        }.filter { $0.hasSuffix(".md") && !own.contains($0) && seen.insert($0).inserted }
    }

    /// The path from the repository's root that `link` points to, or `nil` when it leaves the repository.
    private func target(of link: MarkdownLink, in document: MarkdownDocument) -> String? {
        guard !link.file.isEmpty else { return document.path }
        return Self.resolve(link.file.removingPercentEncoding ?? link.file, from: document.path)
    }

    /// What is wrong with `link`, or `nil` when its file (and heading) exist.
    private func problem(with link: MarkdownLink, in document: MarkdownDocument) -> String? {
        guard let target = target(of: link, in: document) else { return "points outside the repository" }
        guard FileManager.default.fileExists(atPath: repository.appendingPathComponent(target).path) else {
            return "points to no file (\(target))"
        }
        guard let anchor = link.anchor, target.hasSuffix(".md") else { return nil }
        let anchors: Set<String>
        if target == document.path {
            anchors = document.anchors
        } else {
            guard let linked = try? MarkdownDocument.load(target, repository: repository) else {
                return "points to \(target), which cannot be read"
            }
            anchors = linked.anchors
        }
        return anchors.contains(anchor) ? nil : "names no heading of \(target) (#\(anchor))"
    }

    /// `relative`, read from the directory of the file at `path`, as a path from the repository's
    /// root (`../README.md` from `docs/c.md` is `README.md`), or `nil` when it leaves the repository.
    static func resolve(_ relative: String, from path: String) -> String? {
        var parts = path.split(separator: "/").dropLast().map(String.init)
        for part in relative.split(separator: "/") {
            switch part {
            case ".": continue
            case "..":
                guard parts.popLast() != nil else { return nil }
            default: parts.append(String(part))
            }
        }
        return parts.joined(separator: "/")
    }
}
