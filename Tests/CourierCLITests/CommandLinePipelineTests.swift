import CourierTestServer
import Foundation
import TestProcesses
import Testing

extension CourierExecutableTests {
    /// The pipeline flags of the built `courier` executable against the loopback server:
    /// `--retry`, `--verbose`, `--explain` and `--plugin`.
    @Suite("pipeline flags")
    struct CommandLinePipelineTests {
        func echo(_ run: CourierRun) throws -> EchoedRequest {
            try JSONDecoder().decode(EchoedRequest.self, from: run.stdout)
        }

        func header(_ name: String, in echoed: EchoedRequest) -> [String] {
            echoed.headers.filter { $0.first?.lowercased() == name.lowercased() }.map { $0[1] }
        }

        @Test func retryResendsUntilAFlakyRouteSucceeds() async throws {
            try await withTestServer { server in
                let retried = try await CourierProcess.run([
                    "--retry", "2", "--check-status", ":\(server.port)/flaky/\(UUID())/2",
                ])
                #expect(retried.status == 0, "\(retried.err)")
                #expect(try echo(retried).method == "GET")

                let plain = try await CourierProcess.run(["--check-status", ":\(server.port)/flaky/\(UUID())/2"])
                #expect(plain.status == 5)
                #expect(plain.out.contains("failure 1 of 2"))

                let tooFew = try await CourierProcess.run([
                    "--retry", "1", "--check-status", ":\(server.port)/flaky/\(UUID())/2",
                ])
                #expect(tooFew.status == 5)
                #expect(tooFew.out.contains("failure 2 of 2"))
            }
        }

        @Test func negativeRetryIsAUsageError() async throws {
            let run = try await CourierProcess.run(["--retry=-1", "example.org"])
            #expect(run.status == 1)
            #expect(run.errLines.count == 1)
            #expect(run.err.contains("--retry cannot be negative"))
        }

        @Test func verboseLogsOneLinePerExchangeAndRedactsTheBearerToken() async throws {
            try await withTestServer { server in
                let url = "http://127.0.0.1:\(server.port)/anything"
                let summary = try await CourierProcess.run(["-v", "--bearer", "s3cret-t0ken", url])
                #expect(summary.status == 0, "\(summary.err)")
                #expect(summary.errLines.count == 1)
                #expect(summary.errLines.first?.hasPrefix("GET \(url) → 200 OK (") == true, "\(summary.err)")

                let full = try await CourierProcess.run(["-vv", "--bearer", "s3cret-t0ken", url])
                #expect(full.status == 0, "\(full.err)")
                #expect(full.err.contains("→ GET \(url)\n"))
                #expect(full.err.contains("Authorization: <redacted>"))
                #expect(full.err.contains("← 200 OK"))
                #expect(full.err.contains("GET \(url) → 200 OK ("))
                #expect(!full.err.contains("s3cret-t0ken"))
                #expect(header("Authorization", in: try echo(full)) == ["Bearer s3cret-t0ken"])

                let repeated = try await CourierProcess.run(["--verbose", "--verbose", "--bearer", "s3cret-t0ken", url])
                #expect(repeated.err.contains("Authorization: <redacted>"))
            }
        }

        @Test func verboseLogsTheRetriesAtDebugLevel() async throws {
            try await withTestServer { server in
                let run = try await CourierProcess.run(["-vv", "--retry", "1", ":\(server.port)/flaky/\(UUID())/1"])
                #expect(run.status == 0, "\(run.err)")
                #expect(run.err.contains("retrying"))
                #expect(run.err.components(separatedBy: "→ 200 OK (").count == 2)
            }
        }

        @Test func explainNamesEachStageAndTheHeadersItAdded() async throws {
            let plugin = try await FixturePlugin.build()
            defer { plugin.remove() }
            try await withTestServer { server in
                let run = try await CourierProcess.run([
                    "--explain", "--bearer", "s3cret-t0ken", "--retry", "1", "-v", "--plugin",
                    "\(plugin.path)=explained",
                    ":\(server.port)/anything",
                ])
                #expect(run.status == 0, "\(run.err)")
                #expect(try header("X-Plugin", in: echo(run)) == ["explained"])
                let text = run.err
                for stage in [
                    "AuthenticationInterceptor", "LoggingInterceptor", "RetryInterceptor", "x-plugin-header",
                    "transport",
                ] {
                    #expect(text.contains(stage), "\(stage) missing from:\n\(text)")
                }
                #expect(text.contains("+ Authorization: <redacted>"))
                #expect(text.contains("+ X-Plugin: explained"))
                #expect(!text.contains("s3cret-t0ken"))
                let stages = [
                    "AuthenticationInterceptor", "LoggingInterceptor", "RetryInterceptor", "x-plugin-header",
                    "transport",
                ]
                let positions = stages.compactMap { text.range(of: $0)?.lowerBound }
                #expect(positions == positions.sorted())
            }
        }

        @Test func explainJSONGoesToStandardOutputWhenNothingElseIsPrinted() async throws {
            try await withTestServer { server in
                let run = try await CourierProcess.run([
                    "--print", "", "--explain-json", "--bearer", "t0k", ":\(server.port)/anything",
                ])
                #expect(run.status == 0, "\(run.err)")
                #expect(run.err.isEmpty)
                let object = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any])
                let steps = try #require(object["steps"] as? [[String: Any]])
                #expect(steps.compactMap { $0["stage"] as? String } == ["AuthenticationInterceptor", "transport"])
                let changes = try #require(steps.first?["requestChanges"] as? [[String: Any]])
                #expect(changes.first?["field"] as? String == "Authorization")
                #expect(changes.first?["to"] as? String == "<redacted>")

                let both = try await CourierProcess.run(["--explain", "--explain-json", ":\(server.port)/anything"])
                #expect(both.status == 1)
                #expect(both.errLines.count == 1)
            }
        }

        @Test func explainIsPrintedBeforeTheErrorWhenTheExchangeFails() async throws {
            let run = try await CourierProcess.run(["--explain", "--retry", "1", "--timeout", "20", ":1/anything"])
            #expect(run.status == 1)
            #expect(run.out.isEmpty)
            #expect(
                run.errLines.first?.hasPrefix("GET http://127.0.0.1:1/anything → error cannotConnect") == true,
                "\(run.err)")
            #expect(run.err.contains("RetryInterceptor"))
            #expect(run.err.contains("[attempt 2]"))
            #expect(run.errLines.last?.hasPrefix("courier: error: ") == true)
            #expect(run.errLines.filter { $0.hasPrefix("courier: error: ") }.count == 1)
        }

        @Test func pluginsAddTheirInterceptorsWithTheirConfig() async throws {
            let plugin = try await FixturePlugin.build()
            defer { plugin.remove() }
            try await withTestServer { server in
                let configured = try await CourierProcess.run([
                    "--plugin", "\(plugin.path)=a=b c", ":\(server.port)/anything",
                ])
                #expect(configured.status == 0, "\(configured.err)")
                #expect(header("X-Plugin", in: try echo(configured)) == ["a=b c"])

                let bare = try await CourierProcess.run(["--plugin", plugin.path, ":\(server.port)/anything"])
                #expect(bare.status == 0, "\(bare.err)")
                #expect(header("X-Plugin", in: try echo(bare)) == ["on"])
            }
        }

        @Test func aPluginThatCannotBeLoadedIsOneErrorLine() async throws {
            let plugin = try await FixturePlugin.build()
            defer { plugin.remove() }
            try await withTestServer { server in
                let missing = "/nonexistent/courier-plugin-\(UUID()).so"
                let run = try await CourierProcess.run(["--plugin", missing, ":\(server.port)/anything"])
                #expect(run.status == 1)
                #expect(run.out.isEmpty)
                #expect(run.errLines == ["courier: error: --plugin: no plugin file at \(missing)"])

                let refused = try await CourierProcess.run([
                    "--plugin", "\(plugin.path)=fail", ":\(server.port)/anything",
                ])
                #expect(refused.status == 1)
                #expect(refused.errLines.count == 1)
                #expect(refused.err.hasPrefix("courier: error: --plugin: plugin x-plugin-header failed to initialise"))
                #expect(refused.err.contains("asked to fail"))

                let notAPlugin = try await CourierProcess.run([
                    "--plugin", "\(plugin.directory.path)", ":\(server.port)/anything",
                ])
                #expect(notAPlugin.status == 1)
                #expect(notAPlugin.errLines.count == 1)
            }
        }
    }
}

/// `Fixtures/header_plugin.c` compiled into a fresh temporary directory as the plugin ABI asks.
struct FixturePlugin {
    let directory: URL
    var path: String { directory.appendingPathComponent("header_plugin.so").path }

    /// The C compiler failed; its output says why.
    struct CompileFailed: Error, CustomStringConvertible {
        let output: String
        var description: String { "cc failed: \(output)" }
    }

    static func build() async throws -> FixturePlugin {
        let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let root = tests.deletingLastPathComponent().deletingLastPathComponent()
        let plugin = FixturePlugin(
            directory: FileManager.default.temporaryDirectory.appendingPathComponent("courier-plugin-\(UUID())"))
        try FileManager.default.createDirectory(at: plugin.directory, withIntermediateDirectories: true)
        let cc = try await ChildProcess.run(
            "cc",
            [
                "-shared", "-fPIC", "-std=c99", "-Wall", "-Wextra", "-Werror",
                "-I\(root.appendingPathComponent("include").path)", "-o", plugin.path,
                tests.appendingPathComponent("Fixtures/header_plugin.c").path,
            ],
            mergingErrorIntoOutput: true, timeout: .seconds(120))
        guard cc.status == 0 else { throw CompileFailed(output: cc.output) }
        return plugin
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }
}
