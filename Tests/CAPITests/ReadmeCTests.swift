import CourierTestServer
import Foundation
import ReadmeBlocks
import Testing

/// The documentation's C, run: every `c` block of every document of `DocumentationSet` (README.md,
/// docs/c.md, the DocC articles…) compiled (as the body of `main`, unless it has its own) and run, and
/// every `Examples/c/courier_get` command run as written, against the loopback test server on the
/// port that stands for 8080. They join ``CExampleTests``, whose steps write the build directory's courier.pc.
extension CExampleTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test func everyDocumentedCBlockCompilesStrictlyAndSendsItsRequest() async throws {
        let artifacts = try await CAPIArtifacts.shared.value
        let documents = try DocumentationSet.load(repository: Self.repository)
        let blocks = documents.flatMap { document in document.blocks(["c"]).map { (document, $0) } }
        #expect(blocks.contains { $0.0.path == "README.md" } && blocks.contains { $0.0.path == "docs/c.md" })
        try await withTestServer { server in
            for (index, (document, block)) in blocks.enumerated() {
                try await CExampleProgram(place: document.place(block.line), code: block.code)
                    .compileAndSend(artifacts, to: server, fileName: "documented_block_\(index)") { $0.isEmpty }
            }
        }
    }

    @Test func everyDocumentedCourierGetCommandGetsA200() async throws {
        let artifacts = try await CAPIArtifacts.shared.value
        let commands = try DocumentationSet.load(repository: Self.repository).flatMap { document in
            document.shellCommands.filter { $0.programs.contains("Examples/c/courier_get") }.map { (document, $0) }
        }
        #expect(!commands.isEmpty)
        try await writePackageConfig(artifacts)
        let program = try await buildExample(
            artifacts, pkgConfigPath: artifacts.buildDirectory.appendingPathComponent("pkgconfig"),
            into: artifacts.work.appendingPathComponent("readme-example"))
        try await withTestServer { server in
            for (document, command) in commands {
                let text = command.text.replacingOccurrences(of: "Examples/c/courier_get", with: program.path)
                    .replacingOccurrences(of: "Examples/plugins/", with: artifacts.pluginDirectory.path + "/")
                    .replacingOccurrences(of: "127.0.0.1:8080", with: "127.0.0.1:\(server.port)")
                let run = try await ProcessRunner.run(["sh", "-c", text], directory: Self.repository)
                #expect(
                    run.status == command.expectedStatus && run.output.hasPrefix("HTTP 200\n"),
                    "\(document.place(command.line)): `\(command.text)`: \(run)")
            }
        }
    }
}
