import CourierTestServer
import Foundation
import Testing

/// util-linux's `script`, which runs a command on a pseudo-terminal of its own.
private let script = URL(fileURLWithPath: "/usr/bin/script")

extension CourierExecutableTests {
    /// The built executable on a real pseudo-terminal, through util-linux's `script`: colours,
    /// formatting and the download progress bar appear only there.
    @Suite(
        "on a terminal",
        .enabled(if: FileManager.default.isExecutableFile(atPath: script.path), "needs util-linux script"))
    struct TerminalOutputTests {
        /// Runs `courier arguments…` with a terminal for its standard input, output and error.
        func onTerminal(_ arguments: [String]) async throws -> CourierRun {
            let executable = try #require(CourierProcess.builtExecutable)
            let command = ([executable.path] + arguments).map { "'\($0)'" }.joined(separator: " ")
            return try await CourierProcess.run(["-qec", command, "/dev/null"], program: script)
        }

        @Test func terminalOutputIsColouredAndIndentedWithHeaders() async throws {
            try await withTestServer { server in
                let run = try await onTerminal([":\(server.port)/anything", "a=1"])
                #expect(run.status == 0)
                #expect(run.out.contains("\u{1B}[32;1m200 OK"))
                #expect(run.out.contains("\u{1B}[34;1m\"method\"\u{1B}[0m: \u{1B}[32m\"POST\"\u{1B}[0m"))
                #expect(run.out.contains("\n    "))
            }
        }

        @Test func downloadShowsAProgressBarOnlyOnATerminal() async throws {
            try await withTestServer { server in
                let file = FileManager.default.temporaryDirectory.appendingPathComponent("courier-tty-\(UUID()).bin")
                defer { try? FileManager.default.removeItem(at: file) }
                let run = try await onTerminal(["-d", "-o", file.path, ":\(server.port)/bytes/2000000"])
                #expect(run.status == 0)
                #expect(run.out.contains("100% ["))
                #expect(run.out.contains("Saved 1.9 MiB to \(file.path)"))
                #expect(try Data(contentsOf: file).count == 2_000_000)
            }
        }
    }
}
