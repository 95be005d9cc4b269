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
                let source = artifacts.work.appendingPathComponent("readme_block_\(block.line).c")
                let code = block.code.replacingOccurrences(of: "127.0.0.1:8080", with: "127.0.0.1:\(server.port)")
                // A block with its own main is a whole program; any other is the body of main.
                let text = code.contains("\nint main(") ? code : "#include <courier.h>\n#include <stdio.h>\n\nint main(void) {\n"
                    + code.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }.joined(separator: "\n")
                    + "\n    return 0;\n}\n"
                try text.write(to: source, atomically: true, encoding: .utf8)
                let program = artifacts.work.appendingPathComponent("bin/readme_block_\(block.line)")
                let compiled = try await ProcessRunner.run(
                    ["cc"] + CAPIArtifacts.strictC + ["-I\(artifacts.include)", "-o", program.path, source.path] + artifacts.linkFlags)
                #expect(compiled.status == 0, "README.md:\(block.line): the C block does not compile: \(compiled)")
                guard compiled.status == 0 else { continue }
                let before = server.receivedRequests.count
                let run = try await artifacts.runNative(program, [])
                #expect(run.status == 0 && run.output.isEmpty, "README.md:\(block.line): \(run)")
                #expect(server.receivedRequests.count == before + 1, "README.md:\(block.line): the block sent no request")
            }
        }
    }

    @Test func everyReadmeCourierGetCommandGetsA200() async throws {
        let artifacts = try await CAPIArtifacts.shared.value
        let commands = try ReadmeDocument.load(repository: Self.readme).shellCommands
            .filter { $0.programs.contains("Examples/c/courier_get") }
        #expect(!commands.isEmpty)
        try await writePackageConfig(artifacts)
        let program = try await buildExample(artifacts, pkgConfigPath: artifacts.buildDirectory.appendingPathComponent("pkgconfig"),
                                             into: artifacts.work.appendingPathComponent("readme-example"))
        try await withTestServer { server in
            for command in commands {
                let text = command.text.replacingOccurrences(of: "Examples/c/courier_get", with: program.path)
                    .replacingOccurrences(of: "Examples/plugins/", with: artifacts.pluginDirectory.path + "/")
                    .replacingOccurrences(of: "127.0.0.1:8080", with: "127.0.0.1:\(server.port)")
                let run = try await ProcessRunner.run(["sh", "-c", text], directory: Self.readme)
                #expect(run.status == command.expectedStatus && run.output.hasPrefix("HTTP 200\n"),
                        "README.md:\(command.line): `\(command.text)`: \(run)")
            }
        }
    }
}
