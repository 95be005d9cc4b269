import CourierTestServer
import Foundation
import Testing

extension CourierExecutableTests {
    /// HTTPie 3.2's `--session`, `--session-read-only` and `config.json` on the built `courier`,
    /// each in a configuration directory of its own (`COURIER_CONFIG_DIR`), checked by what the
    /// loopback server received and what the session file holds.
    @Suite("sessions and config.json")
    struct CommandLineSessionTests {
        /// A fresh configuration directory, removed afterwards.
        func withConfigDirectory<Result>(_ body: (URL, [String: String]) async throws -> Result) async throws -> Result
        {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("courier-config-\(UUID())")
            defer { try? FileManager.default.removeItem(at: directory) }
            return try await body(directory, ["COURIER_CONFIG_DIR": directory.path])
        }

        func json(_ file: URL) throws -> [String: Any] {
            try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        }

        @Test func aSessionKeepsHeadersCookiesAndCredentialsAndSendsThemNextTime() async throws {
            try await withTestServer { server in
                try await withConfigDirectory { directory, environment in
                    let first = try await CourierProcess.run(
                        ["--session", "user1", "-a", "ada:secret", ":\(server.port)/cookies/set?sid=abc", "X-API:k1"],
                        environment: environment)
                    #expect(first.status == 0, "\(first.err)")
                    let file = directory.appendingPathComponent("sessions/127.0.0.1_\(server.port)/user1.json")
                    let stored = try json(file)
                    #expect(stored["headers"] as? [[String: String]] == [["name": "X-API", "value": "k1"]])
                    #expect(stored["auth"] as? [String: String] == ["type": "basic", "raw_auth": "ada:secret"])
                    let cookies = try #require(stored["cookies"] as? [[String: Any]])
                    #expect(cookies.map { $0["name"] as? String } == ["sid"])
                    #expect(cookies.first?["value"] as? String == "abc")
                    let permissions =
                        try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
                    #expect(permissions == 0o600)

                    let second = try await CourierProcess.run(
                        ["--session", "user1", ":\(server.port)/anything"], environment: environment)
                    #expect(second.status == 0, "\(second.err)")
                    let echoed = try second.echoed()
                    #expect(echoed.values(of: "X-API") == ["k1"])
                    #expect(echoed.values(of: "Authorization") == ["Basic YWRhOnNlY3JldA=="])
                    #expect(echoed.values(of: "Cookie") == ["sid=abc"])
                }
            }
        }

        @Test func theCommandLineWinsOverTheSessionAndIsKept() async throws {
            try await withTestServer { server in
                try await withConfigDirectory { directory, environment in
                    _ = try await CourierProcess.run(
                        ["--session", "s", ":\(server.port)/anything", "X-API:k1", "User-Agent:agent/1"],
                        environment: environment)
                    let run = try await CourierProcess.run(
                        ["--session", "s", "--bearer", "t0k", ":\(server.port)/anything", "X-API:k2"],
                        environment: environment)
                    let echoed = try run.echoed()
                    #expect(echoed.values(of: "X-API") == ["k2"])
                    #expect(echoed.values(of: "User-Agent") == ["agent/1"])
                    #expect(echoed.values(of: "Authorization") == ["Bearer t0k"])
                    let stored = try json(directory.appendingPathComponent("sessions/127.0.0.1_\(server.port)/s.json"))
                    #expect(
                        stored["headers"] as? [[String: String]] == [
                            ["name": "User-Agent", "value": "agent/1"], ["name": "X-API", "value": "k2"],
                        ])
                    #expect(stored["auth"] as? [String: String] == ["type": "bearer", "raw_auth": "t0k"])
                }
            }
        }

        @Test func requestSpecificHeadersAreNotKept() async throws {
            try await withTestServer { server in
                try await withConfigDirectory { directory, environment in
                    let run = try await CourierProcess.run(
                        [
                            "--session", "s", ":\(server.port)/anything", "If-None-Match:x",
                            "Content-Language:sv", "X-Kept:1",
                        ], environment: environment)
                    #expect(try run.echoed().values(of: "If-None-Match") == ["x"])
                    let stored = try json(directory.appendingPathComponent("sessions/127.0.0.1_\(server.port)/s.json"))
                    #expect(stored["headers"] as? [[String: String]] == [["name": "X-Kept", "value": "1"]])
                }
            }
        }

        @Test func aCookieHeaderIsSentOnceAndKept() async throws {
            try await withTestServer { server in
                try await withConfigDirectory { directory, environment in
                    let run = try await CourierProcess.run(
                        ["--session", "s", ":\(server.port)/anything", "Cookie:a=1; b=2"], environment: environment)
                    #expect(try run.echoed().values(of: "Cookie") == ["a=1; b=2"])
                    let again = try await CourierProcess.run(
                        ["--session", "s", ":\(server.port)/anything"], environment: environment)
                    #expect(try again.echoed().values(of: "Cookie") == ["a=1; b=2"])
                }
            }
        }

        @Test func aReadOnlySessionIsSentButNotChanged() async throws {
            try await withTestServer { server in
                try await withConfigDirectory { directory, environment in
                    _ = try await CourierProcess.run(
                        ["--session", "s", ":\(server.port)/anything", "X-API:k1"], environment: environment)
                    let file = directory.appendingPathComponent("sessions/127.0.0.1_\(server.port)/s.json")
                    let before = try Data(contentsOf: file)
                    let run = try await CourierProcess.run(
                        ["--session-read-only", "s", ":\(server.port)/cookies/set?new=1", "X-Other:2"],
                        environment: environment)
                    #expect(run.status == 0, "\(run.err)")
                    #expect(try Data(contentsOf: file) == before)
                    let sent = try await CourierProcess.run(
                        ["--session-read-only", "s", ":\(server.port)/anything"], environment: environment)
                    #expect(try sent.echoed().values(of: "X-API") == ["k1"])
                    #expect(try sent.echoed().values(of: "Cookie").isEmpty)
                }
            }
        }

        @Test func aSessionPathIsUsedAsGivenAndHTTPieFilesAreRead() async throws {
            try await withTestServer { server in
                try await withConfigDirectory { directory, environment in
                    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                    let modern = directory.appendingPathComponent("httpie-3.2.json")
                    try Data(
                        """
                        {"__meta__": {"about": "HTTPie session file", "help": "https://httpie.io/docs#sessions", "httpie": "3.2.2"},
                         "auth": {"type": "basic", "raw_auth": "ada:secret"},
                         "cookies": [{"name": "sid", "value": "s1", "domain": "", "path": "/", "secure": false, "expires": null}],
                         "headers": [{"name": "X-Team", "value": "core"}]}
                        """.utf8
                    ).write(to: modern)
                    let run = try await CourierProcess.run(
                        ["--session-read-only", modern.path, ":\(server.port)/anything"], environment: environment)
                    #expect(run.status == 0, "\(run.err)")
                    let echoed = try run.echoed()
                    #expect(echoed.values(of: "X-Team") == ["core"])
                    #expect(echoed.values(of: "Cookie") == ["sid=s1"])
                    #expect(echoed.values(of: "Authorization") == ["Basic YWRhOnNlY3JldA=="])

                    let legacy = directory.appendingPathComponent("httpie-2.json")
                    try Data(
                        """
                        {"__meta__": {"httpie": "2.6.0"}, "auth": {"type": "basic", "username": "bo", "password": "pw"},
                         "cookies": {"old": {"value": "o1", "path": "/", "secure": false, "expires": null}},
                         "headers": {"X-Legacy": "yes"}}
                        """.utf8
                    ).write(to: legacy)
                    let old = try await CourierProcess.run(
                        ["--session", legacy.path, ":\(server.port)/anything"], environment: environment)
                    #expect(old.status == 0, "\(old.err)")
                    let echoedOld = try old.echoed()
                    #expect(echoedOld.values(of: "X-Legacy") == ["yes"])
                    #expect(echoedOld.values(of: "Cookie") == ["old=o1"])
                    #expect(echoedOld.values(of: "Authorization") == ["Basic Ym86cHc="])
                    let rewritten = try json(legacy)
                    #expect(rewritten["headers"] as? [[String: String]] == [["name": "X-Legacy", "value": "yes"]])
                }
            }
        }

        @Test func badSessionNamesAndFilesAreErrorsThatNameThem() async throws {
            try await withConfigDirectory { directory, environment in
                let name = try await CourierProcess.run(["--session", "a b", "example.org"], environment: environment)
                #expect(name.status == 1)
                #expect(
                    name.err.contains("session name \"a b\": use letters, digits, _ . and -, or give a path with a /"),
                    "\(name.err)")

                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                let broken = directory.appendingPathComponent("broken.json")
                try Data("{\"headers\": 7}".utf8).write(to: broken)
                let run = try await CourierProcess.run(
                    ["--session", broken.path, "example.org"], environment: environment)
                #expect(run.status == 1)
                #expect(
                    run.err.hasPrefix("courier: error: the session file \(broken.path) is not a session file"),
                    "\(run.err)")

                let both = try await CourierProcess.run(
                    ["--session", "a", "--session-read-only", "b", "example.org"], environment: environment)
                #expect(both.status == 1)
                #expect(both.err.contains("--session and --session-read-only cannot be used together"))
            }
        }

        @Test func configDefaultOptionsComeFirstAndTheCommandLineWins() async throws {
            try await withTestServer { server in
                try await withConfigDirectory { directory, environment in
                    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                    try Data(#"{"default_options": ["--follow", "--print=h"]}"#.utf8).write(
                        to: directory.appendingPathComponent("config.json"))
                    let defaults = try await CourierProcess.run(
                        [":\(server.port)/redirect/1"], environment: environment)
                    #expect(defaults.status == 0, "\(defaults.err)")
                    #expect(defaults.out.hasPrefix("HTTP/1.1 200 OK\n"), "\(defaults.out)")
                    #expect(!defaults.out.contains("\"path\""))

                    let overridden = try await CourierProcess.run(
                        ["--print", "b", ":\(server.port)/redirect/1"], environment: environment)
                    #expect(overridden.status == 0, "\(overridden.err)")
                    #expect(try overridden.echoed().path == "/echo/get")
                }
            }
        }

        @Test func aBrokenConfigFileIsAnErrorNamingIt() async throws {
            try await withConfigDirectory { directory, environment in
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                let file = directory.appendingPathComponent("config.json")
                try Data(#"{"default_options": "--follow"}"#.utf8).write(to: file)
                let run = try await CourierProcess.run(["example.org"], environment: environment)
                #expect(run.status == 1)
                #expect(
                    run.err
                        == "courier: error: the config file \(file.path) default_options must be a list of strings, such as [\"--follow\"]\n"
                )
            }
        }
    }
}
