import CourierTestServer
import Foundation
import ReadmeBlocks
import TestProcesses
import Testing

extension CourierExecutableTests {
    /// Every documented command that runs `courier` or `courier-examples`, in every document of
    /// `DocumentationSet` (the README, docs/cli.md, docs/c.md, the Python package's README, the DocC
    /// articles…), run as written against the loopback test server, so an example that stops working
    /// fails here.
    ///
    /// What changes from the text: `swift run X` and `.build/debug/courier` are the built products
    /// (SwiftPM cannot run inside `swift test`, which holds the build directory's lock); port 8080
    /// is the test server's port, and `courier serve --port 8080 &` serves on a free port. The
    /// commands run with `sh -c` in a scratch directory that holds the files they name, with
    /// `http_proxy` pointing at the test server so `example.org` never leaves the machine.
    @Suite("Documented commands")
    struct ReadmeCommandTests {
        static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        /// The programs this suite runs, as `ShellCommand.programs` names them.
        static let programs: Set<String> = ["courier", "courier-examples"]

        @Test func everyDocumentedCommandOfTheToolEndsWithTheStatusItsDocumentStates() async throws {
            let commands = try DocumentationSet.load(repository: Self.root).flatMap { document in
                document.shellCommands.filter { !Self.programs.isDisjoint(with: $0.programs) }.map {
                    (place: document.place($0.line), command: $0)
                }
            }
            #expect(commands.count > 25, "the documentation shows \(commands.count) courier commands")
            #expect(commands.contains { $0.place.hasPrefix("README.md:") }, "the front page shows no courier command")
            let scratch = try await Self.scratchDirectory()
            defer { try? FileManager.default.removeItem(at: scratch) }
            let fixtures = Set(try FileManager.default.contentsOfDirectory(atPath: scratch.path))
            // Sessions and config.json go to a directory of the test's own, kept from one command to the next.
            let configDirectory = FileManager.default.temporaryDirectory.appendingPathComponent(
                "readme-config-\(UUID())")
            defer { try? FileManager.default.removeItem(at: configDirectory) }
            try await withTestServer { server in
                let environment = [
                    "PATH": scratch.appendingPathComponent("bin").path + ":"
                        + (ProcessInfo.processInfo.environment["PATH"] ?? ""),
                    "http_proxy": "http://127.0.0.1:\(server.port)", "no_proxy": "127.0.0.1,localhost",
                    "COURIER_CONFIG_DIR": configDirectory.path,
                ]
                for (place, command) in commands {
                    let text = Self.asRun(command.text, port: server.port)
                    if command.isBackground {
                        try await Self.serve(
                            text, command: command, at: place, environment: environment, in: scratch)
                        continue
                    }
                    let run = try await ChildProcess.run(
                        "/bin/sh", ["-c", text], environment: environment, directory: scratch,
                        timeout: .seconds(300))
                    #expect(
                        run.status == command.expectedStatus,
                        "\(place): `\(command.text)` exited \(run.status), not \(command.expectedStatus): \(run.errorOutput)"
                    )
                    for file in try FileManager.default.contentsOfDirectory(atPath: scratch.path)
                    where !fixtures.contains(file) {
                        try FileManager.default.removeItem(at: scratch.appendingPathComponent(file))
                    }
                }
                #expect(
                    server.receivedRequests.contains { $0.header("host") == "example.org" },
                    "`courier example.org/x` did not reach the test server as its proxy")
            }
        }

        /// `text` as the test runs it: the built products, and the test server's port for 8080.
        static func asRun(_ text: String, port: Int) -> String {
            text.replacingOccurrences(of: "swift run ", with: "")
                .replacingOccurrences(of: ".build/debug/courier", with: "courier")
                .replacingOccurrences(of: "--port 8080", with: "--port 0")
                .replacingOccurrences(of: ":8080", with: ":\(port)")
        }

        /// Starts a background `courier serve`, checks it answers on the port it prints, and stops it with Ctrl-C.
        static func serve(
            _ text: String, command: ShellCommand, at place: String, environment: [String: String],
            in directory: URL
        ) async throws {
            let serve = try BackgroundProcess(
                "/bin/sh", ["-c", "exec " + text], environment: environment, directory: directory)
            var port: Int?
            for _ in 0..<600 where port == nil {
                try await Task.sleep(for: .milliseconds(100))
                if let range = serve.output().range(of: "http://127.0.0.1:") {
                    port = Int(serve.output()[range.upperBound...].prefix { $0.isNumber })
                }
            }
            guard let port else {
                _ = try await serve.stop(with: SIGKILL)
                Issue.record("\(place): `\(command.text)` printed no URL: \(serve.errorOutput())")
                return
            }
            let run = try await CourierProcess.run(["--check-status", ":\(port)/anything"])
            #expect(run.status == 0, "\(place): `\(command.text)` did not answer: \(run.err)")
            #expect(try await serve.stop(with: SIGINT) == 0)
        }

        /// A scratch directory with the built products in `bin/`, the files the commands send, the
        /// plugin `./stamp.so` (the header plugin fixture) and the example plugins under `Examples/plugins`.
        static func scratchDirectory() async throws -> URL {
            let courier = try #require(CourierProcess.builtExecutable)
            let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("readme-commands-\(UUID())")
            let bin = scratch.appendingPathComponent("bin")
            try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
            for product in programs {
                let built = courier.deletingLastPathComponent().appendingPathComponent(product)
                #expect(FileManager.default.isExecutableFile(atPath: built.path), "\(built.path) is not built")
                try FileManager.default.createSymbolicLink(
                    at: bin.appendingPathComponent(product), withDestinationURL: built)
            }
            let files: [String: String] = [
                "bio.txt": "Ada wrote the first program.\n", "meta.json": #"{"tags": ["a", "b"]}"#,
                "token.txt": "s3cr3t\n",
                "beach.jpg": "JPEGDATA", "shot.bin": "\u{0}\u{1}\u{2}PNG",
            ]
            for (name, contents) in files {
                try Data(contents.utf8).write(to: scratch.appendingPathComponent(name))
            }
            let plugin = try await FixturePlugin.build()
            defer { plugin.remove() }
            try FileManager.default.copyItem(
                atPath: plugin.path, toPath: scratch.appendingPathComponent("stamp.so").path)
            let make = try await ChildProcess.run(
                "make",
                [
                    "--no-print-directory", "-C", root.appendingPathComponent("Examples/plugins").path,
                    "OUT=\(scratch.appendingPathComponent("Examples/plugins").path)",
                    "INCLUDE=\(root.appendingPathComponent("include").path)", "c",
                ],
                mergingErrorIntoOutput: true, timeout: .seconds(300))
            #expect(make.status == 0, "\(make.output)")
            return scratch
        }
    }
}
