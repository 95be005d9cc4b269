import CourierTestServer
import Foundation
import ReadmeBlocks
import Testing

/// README.md's C, run: every `c` block compiled (as the body of `main`, unless it has its own) and run, and every
/// `Examples/c/courier_get` command run as written, against the loopback test server on the port
/// that stands for 8080. They join ``CExampleTests``, whose steps write the build directory's courier.pc.
extension CExampleTests {
    static let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test func everyReadmeCBlockCompilesStrictlyAndSendsItsRequest() async throws {
        let artifacts = try await CAPIArtifacts.shared.value
        let blocks = try ReadmeDocument.load(repository: Self.readme).blocks(["c"])
        #expect(!blocks.isEmpty)
        try await withTestServer { server in
            for block in blocks {
                try await CExampleProgram(place: "README.md:\(block.line)", code: block.code)
                    .compileAndSend(artifacts, to: server, fileName: "readme_block_\(block.line)") { $0.isEmpty }
            }
        }
    }

    @Test func everyReadmeCourierGetCommandGetsA200() async throws {
        let artifacts = try await CAPIArtifacts.shared.value
        let commands = try ReadmeDocument.load(repository: Self.readme).shellCommands
            .filter { $0.programs.contains("Examples/c/courier_get") }
        #expect(!commands.isEmpty)
        try await writePackageConfig(artifacts)
        let program = try await buildExample(
            artifacts, pkgConfigPath: artifacts.buildDirectory.appendingPathComponent("pkgconfig"),
            into: artifacts.work.appendingPathComponent("readme-example"))
        try await withTestServer { server in
            for command in commands {
                let text = command.text.replacingOccurrences(of: "Examples/c/courier_get", with: program.path)
                    .replacingOccurrences(of: "Examples/plugins/", with: artifacts.pluginDirectory.path + "/")
                    .replacingOccurrences(of: "127.0.0.1:8080", with: "127.0.0.1:\(server.port)")
                let run = try await ProcessRunner.run(["sh", "-c", text], directory: Self.readme)
                #expect(
                    run.status == command.expectedStatus && run.output.hasPrefix("HTTP 200\n"),
                    "README.md:\(command.line): `\(command.text)`: \(run)")
            }
        }
    }
}
