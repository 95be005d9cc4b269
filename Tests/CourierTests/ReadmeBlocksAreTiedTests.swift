import Foundation
import ReadmeBlocks
import TestProcesses
import Testing

/// README.md's code is checked both ways: `ReadmeExamplesTests` shows the compiled examples are in
/// the README, and this suite shows every `swift`, `c`, `sh` and `python` block of the README is
/// compiled or run by a test, or marked as output (the rules and the convention: ``ReadmeTies``).
@Suite("README blocks are tied to code")
struct ReadmeBlocksAreTiedTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test func everyCodeBlockIsCompiledOrRunByATestOrMarkedAsOutput() throws {
        let failures = try ReadmeTies(repository: Self.root).failures(in: ReadmeDocument.load(repository: Self.root))
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }

    @Test func anUntiedSwiftBlockFailsWithItsLineAndFirstLine() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let scratch = "# Scratch\n\n```swift\nlet untied = try Request { Method.GET }\nprint(untied)\n```\n\n" + readme
        let failures = try ReadmeTies(repository: Self.root).failures(in: ReadmeDocument(text: scratch))
        #expect(failures.count == 1)
        #expect(
            failures.first?.hasPrefix(
                "README.md:3: ```swift block `let untied = try Request { Method.GET }` is not tied") == true,
            "\(failures)")
    }

    @Test func theOutputMarkerRightBeforeTheFenceExemptsABlock() throws {
        let ties = try ReadmeTies(repository: Self.root)
        let marked = ReadmeDocument(text: "<!-- output: what a run printed -->\n```sh\nrm -rf ./nothing\n```\n")
        #expect(ties.failures(in: marked).isEmpty)
        let tooFar = ReadmeDocument(text: "<!-- output -->\n\n```sh\nrm -rf ./nothing\n```\n")
        #expect(
            ties.failures(in: tooFar) == [
                "README.md:3: ```sh block `rm -rf ./nothing` is not tied to compiled or executed code "
                    + "(no test or script runs line 4: `rm -rf ./nothing`) nor marked with <!-- output --> before its fence"
            ])
    }

    @Test func anUntiedCommandInATiedShellBlockStillFails() throws {
        let document = ReadmeDocument(
            text: "## Somewhere\n```sh\nscripts/test\nsudo make install   # not run anywhere\n```\n")
        let failures = try ReadmeTies(repository: Self.root).failures(in: document)
        #expect(failures.count == 1)
        #expect(failures.first?.contains("line 4: `sudo make install`") == true, "\(failures)")
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
                """, heading: "")
        #expect(
            block.shellCommands == [
                ShellCommand(line: 11, text: ".ci/install", comment: "builds, then demo"),
                ShellCommand(line: 11, text: "swift run courier demo", comment: "builds, then demo"),
                ShellCommand(line: 13, text: "curl 'http://x/#frag' -H 'A: b'", comment: "exit status 3"),
                ShellCommand(line: 15, text: ##"echo '{"a": "# not a comment"}' | courier :8080/anything"##),
                ShellCommand(line: 16, text: "swift run courier serve --port 8080", isBackground: true),
            ])
        #expect(
            block.shellCommands.map(\.programs) == [
                [".ci/install"], ["courier"], ["curl"], ["echo", "courier"], ["courier"],
            ])
        #expect(block.shellCommands[2].expectedStatus == 3)
    }
}
