import Foundation
import ReadmeBlocks
import Testing

/// Every relative link of the documentation set, and of the Markdown files it links to, leads
/// somewhere: a file of the repository, and a heading of it when the link names one (the rules:
/// ``DocumentLinks``).
@Suite("Documentation links")
struct DocumentLinksTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test func everyRelativeLinkOfEveryDocumentPointsToAFileAndHeadingThatExist() throws {
        let documents = try DocumentationSet.load(repository: Self.root)
        #expect(documents.first?.links.contains { $0.target == "docs/c.md" } == true, "the front page links docs/c.md")
        let links = DocumentLinks(repository: Self.root)
        let failures = documents.flatMap(links.failures(in:))
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }

    @Test func everyRelativeLinkOfAMarkdownFileTheDocumentsLinkToLeadsSomewhereToo() throws {
        let links = DocumentLinks(repository: Self.root)
        let linked = links.linkedMarkdownFiles(of: try DocumentationSet.load(repository: Self.root))
        #expect(linked.contains("ARCHITECTURE.md") && linked.contains("Fuzz/README.md"), "\(linked)")
        let documents = try linked.map { try MarkdownDocument.load($0, repository: Self.root) }
        let failures = documents.flatMap(links.failures(in:))
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }

    @Test func aDeadFileOrHeadingFailsWithItsDocumentAndLine() {
        let document = MarkdownDocument(
            path: "docs/c.md",
            text: """
                # The C library

                Read [the front page](../README.md#quick-start), [this](#the-c-library), [the web](https://example.org/x.md).
                But [this file](../NOPE.md), [this heading](#nope), [that one](cli.md#nope) and [this](../../x) are dead.
                `[in code](nope.md)` is not a link, nor is `a code span
                [going on](nope.md)` to the next line, [but this](../NOPE.md) is, and neither is a fenced one:
                ```text
                [fenced](nope.md)
                ```
                """)
        #expect(
            DocumentLinks(repository: Self.root).failures(in: document) == [
                "docs/c.md:4: the link `../NOPE.md` points to no file (NOPE.md)",
                "docs/c.md:4: the link `#nope` names no heading of docs/c.md (#nope)",
                "docs/c.md:4: the link `cli.md#nope` names no heading of docs/cli.md (#nope)",
                "docs/c.md:4: the link `../../x` points outside the repository",
                "docs/c.md:6: the link `../NOPE.md` points to no file (NOPE.md)",
            ])
    }

    @Test func anchorsAreGitHubs() {
        let document = MarkdownDocument(
            path: "x.md",
            text: """
                ## C library: `libcourier.so`
                ### Recording: HAR files and cassettes
                ## [Interceptor plugins](docs/c.md), in C or Swift
                ## `courier_client_send`'s thread
                ## Usage
                ## Usage
                #include <not-a-heading.h>
                """)
        #expect(
            document.anchors == [
                "c-library-libcourierso", "recording-har-files-and-cassettes", "interceptor-plugins-in-c-or-swift",
                "courier_client_sends-thread", "usage", "usage-1",
            ])
    }
}
