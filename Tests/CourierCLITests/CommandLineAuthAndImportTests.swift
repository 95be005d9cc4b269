import CourierTestServer
import Foundation
import TestProcesses
import Testing

extension CourierExecutableTests {
    /// `--auth-type` (HTTPie's basic, bearer and digest) and `--curl-import` of the built `courier`
    /// executable against the loopback server.
    @Suite("auth types and curl import")
    struct CommandLineAuthAndImportTests {
        @Test func digestAnswersTheServersChallenge() async throws {
            try await withTestServer { server in
                let path = "/digest-auth/auth/ada/s3cret/SHA-256"
                let run = try await CourierProcess.run([
                    "--check-status", "-A", "digest", "-a", "ada:s3cret", ":\(server.port)\(path)",
                ])
                #expect(run.status == 0, "\(run.err)")
                #expect(
                    run.out.contains(#""authenticated": true"#) || run.out.contains(#""authenticated":true"#),
                    "\(run.out)")
                #expect(server.receivedRequests.filter { $0.path == path }.count == 2)

                let wrong = try await CourierProcess.run([
                    "--check-status", "--auth-type", "digest", "--auth", "ada:nope", ":\(server.port)\(path)",
                ])
                #expect(wrong.status == 4, "\(wrong.err)")
            }
        }

        @Test func bearerAuthTypeSendsTheTokenAndBasicStaysTheDefault() async throws {
            try await withTestServer { server in
                let bearer = try await CourierProcess.run([
                    "--check-status", "-A", "bearer", "-a", "t0k", ":\(server.port)/bearer?token=t0k",
                ])
                #expect(bearer.status == 0, "\(bearer.err)")
                let basic = try await CourierProcess.run([
                    "--check-status", "-a", "ada:pw", ":\(server.port)/basic-auth/ada/pw",
                ])
                #expect(basic.status == 0, "\(basic.err)")
            }
        }

        @Test func anAuthTypeWithoutCredentialsIsAUsageError() async throws {
            let missing = try await CourierProcess.run(["-A", "digest", "example.org"])
            #expect(missing.status == 1 && missing.err.contains("--auth-type digest needs --auth"), "\(missing.err)")
            let noPassword = try await CourierProcess.run(["-A", "digest", "-a", "ada", "example.org"])
            #expect(noPassword.status == 1 && noPassword.err.contains("user:password"), "\(noPassword.err)")
        }

        @Test func curlImportSendsTheCommandsRequestAndNotesWhatItSkips() async throws {
            try await withTestServer { server in
                let command = """
                    curl 'http://127.0.0.1:\(server.port)/echo/imported?q=1' -X PUT \\
                      -H 'X-From: curl' --data-raw '{"a":1}' -H 'Content-Type: application/json' --compressed -s
                    """
                let run = try await CourierProcess.run(["--print", "b", "--curl-import", command])
                #expect(run.status == 0, "\(run.err)")
                let echoed = try JSONDecoder().decode(EchoedRequest.self, from: run.stdout)
                #expect(echoed.method == "PUT" && echoed.path == "/echo/imported" && echoed.query == "q=1")
                #expect(echoed.body == Data(#"{"a":1}"#.utf8))
                #expect(
                    echoed.headers.contains(["X-From", "curl"])
                        && echoed.headers.contains(["Content-Type", "application/json"]))
                #expect(
                    run.errLines == [
                        "courier: note: curl's --compressed: Courier's transports ask for compressed bodies and decode them by default",
                        "courier: note: curl's -s: changes only what curl prints or how it connects",
                    ])
            }
        }

        @Test func aCurlCommandThatCannotBeImportedSendsNothingAndSaysWhy() async throws {
            try await withTestServer { server in
                let run = try await CourierProcess.run([
                    "--curl-import", "curl http://127.0.0.1:\(server.port)/anything --frobnicate",
                ])
                #expect(run.status != 0)
                #expect(run.err.contains("--frobnicate"), "\(run.err)")
                #expect(server.receivedRequests.isEmpty)
                let both = try await CourierProcess.run(["--curl-import", "curl http://x/", ":\(server.port)/anything"])
                #expect(
                    both.status == 1 && both.err.contains("--curl-import describes the whole request"), "\(both.err)")
            }
        }
    }
}
