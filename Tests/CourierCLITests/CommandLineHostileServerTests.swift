import CourierTestServer
import Foundation
import TestProcesses
import Testing

extension CourierExecutableTests {
    /// What a hostile server may not do through the built `courier`: drive the terminal from an
    /// error line, write outside the download folder or a dotfile, or make a long line cost more
    /// than its length; and what a plugin path without a slash means.
    @Suite("hostile servers")
    struct CommandLineHostileServerTests {
        /// Whether `text` holds a byte a terminal acts on: C0 but line feed, DEL, or a C1 character.
        func holdsTerminalControls(_ text: String) -> Bool {
            text.unicodeScalars.contains { scalar in
                (scalar.value < 0x20 && scalar != "\n") || (0x7F..<0xA0).contains(scalar.value)
            }
        }

        @Test(arguments: ["curl", "ahc"], ["status-line", "header-line"])
        func aServersEscapesReachTheErrorLineEscaped(transport: String, place: String) async throws {
            try await withTestServer { server in
                let run = try await CourierProcess.run([
                    "--transport", transport, ":\(server.port)/hostile/escapes/\(place)",
                ])
                #expect(run.status != 0)
                #expect(run.err.hasPrefix("courier: error: "), "\(run.err)")
                #expect(!holdsTerminalControls(run.err), "\(run.err.debugDescription)")
            }
        }

        /// A body the user asked to print is printed as sent, as HTTPie prints it.
        @Test func aBodyIsPrintedAsSent() async throws {
            try await withTestServer { server in
                let run = try await CourierProcess.run(["--print", "b", ":\(server.port)/hostile/escapes/body"])
                #expect(run.status == 0, "\(run.err)")
                #expect(run.out.contains("before\u{1B}]0;pwned\u{07}\u{1B}[2J"))
            }
        }

        @Test func aDownloadNeverWritesADotfileOrOutsideItsFolder() async throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-hostile-\(UUID())")
            let downloads = folder.appendingPathComponent("downloads")
            try FileManager.default.createDirectory(at: downloads, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            try await withTestServer { server in
                for (suggested, expected) in [
                    (".bashrc", "bashrc"), ("../escaped.txt", "escaped.txt"), ("..%2F..%2Fdeep.txt", "deep.txt"),
                    ("a%3Bb.txt", "a;b.txt"), ("%07bell.txt", "bell.txt"), ("..", "disposition"),
                ] {
                    let run = try await CourierProcess.run(
                        ["--download", ":\(server.port)/hostile/disposition?filename=\(suggested)"],
                        directory: downloads)
                    #expect(run.status == 0, "\(suggested): \(run.err)")
                    let saved = downloads.appendingPathComponent(expected)
                    let listing = (try? FileManager.default.contentsOfDirectory(atPath: downloads.path)) ?? []
                    #expect(
                        (try? String(contentsOf: saved, encoding: .utf8)) == "payload",
                        "\(suggested) should be saved as \(expected): \(listing)")
                    try? FileManager.default.removeItem(at: saved)
                }
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["downloads"])
            #expect(try FileManager.default.contentsOfDirectory(atPath: downloads.path).isEmpty)
        }

        /// A 2 MiB line arriving in 16 KiB chunks: searched once per byte (it took 67 s when every
        /// chunk searched the whole line again); a line past the limit is an error.
        @Test func streamTakesALongLineAtTheCostOfItsLength() async throws {
            try await withTestServer { server in
                let run = try await CourierProcess.run(["-S", "--print", "b", ":\(server.port)/hostile/long-line"])
                #expect(run.status == 0, "\(run.err)")
                let lines = run.out.split(separator: "\n", omittingEmptySubsequences: false)
                #expect(lines.map(\.count) == [2 << 20, 3, 0])
                let tooLong = try await CourierProcess.run([
                    "-S", "--print", "b", ":\(server.port)/hostile/long-line?bytes=\((16 << 20) + 1)",
                ])
                #expect(tooLong.status != 0)
                #expect(tooLong.err.contains("longer than 16777216 bytes"), "\(tooLong.err)")
            }
        }

        /// A token given as the URL's user never reaches `-vv`, `--explain` or an error line.
        @Test func aTokenInTheURLsUserPartIsRedactedInEveryLine() async throws {
            let token = "ghp-cli-token-0042"
            try await withTestServer { server in
                for arguments in [["-vv"], ["--explain"], ["--print", "", "--explain-json"]] {
                    let run = try await CourierProcess.run(
                        arguments + ["http://\(token)@127.0.0.1:\(server.port)/status/200"])
                    #expect(run.status == 0, "\(arguments): \(run.err)")
                    #expect(!run.err.contains(token) && !run.out.contains(token), "\(arguments): \(run.err)\(run.out)")
                }
                let refused = try await CourierProcess.run(["http://\(token)@127.0.0.1:1/"])
                #expect(refused.status != 0)
                #expect(!refused.err.contains(token), "\(refused.err)")
            }
        }

        /// `--plugin name.so` names the file in the current directory, as any path does; never a
        /// library the loader would search the system for.
        @Test func aPluginPathWithoutASlashIsAFileInTheCurrentDirectory() async throws {
            let plugin = try await FixturePlugin.build()
            defer { plugin.remove() }
            let directory = URL(fileURLWithPath: plugin.path).deletingLastPathComponent()
            let name = URL(fileURLWithPath: plugin.path).lastPathComponent
            try await withTestServer { server in
                let run = try await CourierProcess.run(
                    ["--print", "b", "--plugin", "\(name)=bare", ":\(server.port)/headers"], directory: directory)
                #expect(run.status == 0, "\(run.err)")
                #expect(run.out.contains("bare"), "\(run.out)")
                let system = try await CourierProcess.run(["--plugin", "libc.so.6", ":\(server.port)/headers"])
                #expect(system.status != 0)
                #expect(system.err.contains("no plugin file at ./libc.so.6"), "\(system.err)")
            }
        }
    }
}
