import Foundation
import ReadmeBlocks
import TestProcesses
import Testing

/// The documentation's code is checked both ways: `ReadmeExamplesTests` shows the compiled examples
/// are in the documentation, and this suite shows every `swift`, `c`, `sh` and `python` block of
/// every document of `DocumentationSet` is compiled or run by a test, or marked as output (the rules
/// and the convention: ``ReadmeTies``).
@Suite("Documentation blocks are tied to code")
struct ReadmeBlocksAreTiedTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test func everyCodeBlockOfEveryDocumentIsCompiledOrRunByATestOrMarkedAsOutput() throws {
        let ties = try ReadmeTies(repository: Self.root)
        let failures = try DocumentationSet.load(repository: Self.root).flatMap(ties.failures(in:))
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }

    @Test func theSetHoldsTheFrontPageEveryReadersDocumentAndEveryDocCArticle() throws {
        let paths = try DocumentationSet.paths(repository: Self.root)
        #expect(paths.first == "README.md")
        for path in ["docs/c.md", "docs/cli.md", "bindings/python/README.md", "Benchmarks/README.md"] {
            #expect(paths.contains(path), "\(paths)")
        }
        #expect(paths.contains("Sources/Courier/Courier.docc/GettingStarted.md"), "\(paths)")
        for path in paths {
            #expect(FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(path).path), "\(path)")
        }
    }

    @Test func anUntiedSwiftBlockFailsWithItsDocumentLineAndFirstLine() throws {
        let cli = try String(contentsOf: Self.root.appendingPathComponent("docs/cli.md"), encoding: .utf8)
        let scratch = "# Scratch\n\n```swift\nlet untied = try Request { Method.GET }\nprint(untied)\n```\n\n" + cli
        let failures = try ReadmeTies(repository: Self.root).failures(
            in: MarkdownDocument(path: "docs/cli.md", text: scratch))
        #expect(failures.count == 1)
        #expect(
            failures.first?.hasPrefix(
                "docs/cli.md:3: ```swift block `let untied = try Request { Method.GET }` is not tied") == true,
            "\(failures)")
    }

    @Test func theOutputMarkerRightBeforeTheFenceExemptsABlock() throws {
        let ties = try ReadmeTies(repository: Self.root)
        let marked = MarkdownDocument(
            path: "README.md", text: "<!-- output: what a run printed -->\n```sh\nrm -rf ./nothing\n```\n")
        #expect(ties.failures(in: marked).isEmpty)
        let tooFar = MarkdownDocument(path: "README.md", text: "<!-- output -->\n\n```sh\nrm -rf ./nothing\n```\n")
        #expect(
            ties.failures(in: tooFar) == [
                "README.md:3: ```sh block `rm -rf ./nothing` is not tied to compiled or executed code "
                    + "(no test or script runs line 4: `rm -rf ./nothing`) nor marked with <!-- output --> before its fence"
            ])
    }

    @Test func anUntiedCommandInATiedShellBlockStillFails() throws {
        let document = MarkdownDocument(
            path: "README.md", text: "## Somewhere\n```sh\nscripts/test\nsudo make install   # not run anywhere\n```\n")
        let failures = try ReadmeTies(repository: Self.root).failures(in: document)
        #expect(failures.count == 1)
        #expect(failures.first?.contains("line 4: `sudo make install`") == true, "\(failures)")
    }

    @Test func aWholeBlockRunnerTiesOnlyTheFirstShellBlockUnderItsHeadingInItsDocument() throws {
        let ties = try ReadmeTies(repository: Self.root)
        let quickStart = "## Quick start\n```sh\npython3 -m venv .build/v\n```\n"
        #expect(ties.failures(in: MarkdownDocument(path: "bindings/python/README.md", text: quickStart)).isEmpty)
        #expect(ties.failures(in: MarkdownDocument(path: "docs/cli.md", text: quickStart)).count == 1)
        let second = quickStart + "```sh\npython3 -m venv .build/w\n```\n"
        let failures = ties.failures(in: MarkdownDocument(path: "bindings/python/README.md", text: second))
        #expect(
            failures.count == 1 && failures.first?.hasPrefix("bindings/python/README.md:5: ") == true, "\(failures)")
    }

    @Test func aSlowScriptIsTiedWithTheVariablesItIsGiven() throws {
        let ties = try ReadmeTies(repository: Self.root)
        #expect(ties.isTied(ShellCommand(line: 1, text: "ROUNDS=3 DURATION=2 Benchmarks/run.sh")))
        #expect(!ties.isTied(ShellCommand(line: 1, text: "Benchmarks/run.sh | rm -rf ./nothing")))
    }

    @Test func scriptsTooSlowForCIExistAreExecutableAndParse() async throws {
        for script in ReadmeTies.syntaxCheckedScripts.sorted() {
            let path = Self.root.appendingPathComponent(script).path
            #expect(FileManager.default.isExecutableFile(atPath: path), "\(script) is not executable")
            let parsed = try await ChildProcess.run(
                "bash", ["-n", path], mergingErrorIntoOutput: true, timeout: .seconds(60))
            #expect(parsed.status == 0, "\(parsed.output)")
        }
    }

    @Test func shellBlocksSplitIntoCommandsAtCommentsContinuationsAndAnd() {
        let block = FencedBlock(
            language: "sh", line: 10,
            code: """
                .ci/install && swift run courier demo   # builds, then demo
                                                        # a comment alone
                curl 'http://x/#frag' \\
                  -H 'A: b'                             # exit status 3
                echo '{"a": "# not a comment"}' | courier :8080/anything
                swift run courier serve --port 8080 &
                ROUNDS=3 SKIP_BUSY=1 Benchmarks/run.sh
                """, heading: "")
        #expect(
            block.shellCommands == [
                ShellCommand(line: 11, text: ".ci/install", comment: "builds, then demo"),
                ShellCommand(line: 11, text: "swift run courier demo", comment: "builds, then demo"),
                ShellCommand(line: 13, text: "curl 'http://x/#frag' -H 'A: b'", comment: "exit status 3"),
                ShellCommand(line: 15, text: ##"echo '{"a": "# not a comment"}' | courier :8080/anything"##),
                ShellCommand(line: 16, text: "swift run courier serve --port 8080", isBackground: true),
                ShellCommand(line: 17, text: "ROUNDS=3 SKIP_BUSY=1 Benchmarks/run.sh"),
            ])
        #expect(
            block.shellCommands.map(\.programs) == [
                [".ci/install"], ["courier"], ["curl"], ["echo", "courier"], ["courier"], ["Benchmarks/run.sh"],
            ])
        #expect(block.shellCommands[2].expectedStatus == 3)
    }
}
