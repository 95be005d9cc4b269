public import Foundation

/// The Markdown files whose code blocks and links are checked: the README, the front page, and
/// the documents it sends each reader to.
///
/// Every test that ties a block to code reads this list: the ties (`ReadmeTies`), the Swift
/// snippet tests, the C, command-line, Python and Ruby runners and the link check. The Python and
/// Ruby tests read ``documents`` from this file's text (`bindings/python/tests/conftest.py`,
/// `bindings/ruby/test/test_readme_blocks.rb`), so keep it one quoted path per line.
public enum DocumentationSet {
    /// The documents, front page first.
    public static let documents = [
        "README.md",
        "docs/c.md",
        "docs/cli.md",
        "bindings/python/README.md",
        "bindings/ruby/README.md",
        "Benchmarks/README.md",
    ]
    /// The DocC catalog of the core, whose every article is in the set too, so a new one is covered.
    public static let docCCatalog = "Sources/Courier/Courier.docc"

    /// Every document's path from the repository's root: ``documents``, then the catalog's articles by name.
    public static func paths(repository: URL) throws -> [String] {
        let catalog = repository.appendingPathComponent(docCCatalog).path
        let files = try FileManager.default.contentsOfDirectory(atPath: catalog)
        let articles = files.filter { $0.hasSuffix(".md") }.sorted()
        return documents + articles.map { "\(docCCatalog)/\($0)" }
    }

    /// Every document, parsed, in the order of ``paths(repository:)``.
    public static func load(repository: URL) throws -> [MarkdownDocument] {
        try paths(repository: repository).map { try MarkdownDocument.load($0, repository: repository) }
    }
}
