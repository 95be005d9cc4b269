import CourierTestServer
import Foundation
import TestProcesses
import Testing

extension CourierExecutableTests {
    /// curl's `--resolve`, `--connect-to` and `--pinnedpubkey`, and HTTPie's reading of `.netrc`
    /// (`--ignore-netrc` off), on the built `courier` against the loopback server.
    @Suite("routes, pins and netrc")
    struct CommandLineRoutingAndNetrcTests {
        private static let name = "courier-route.invalid"

        @Test(arguments: ["curl", "ahc"])
        func resolveSendsANameThatDoesNotExistToTheServer(transport: String) async throws {
            try await withTestServer { server in
                let run = try await CourierProcess.run([
                    "--transport", transport, "--print", "b", "--resolve", "\(Self.name):\(server.port):127.0.0.1",
                    "http://\(Self.name):\(server.port)/echo/resolved",
                ])
                #expect(run.status == 0, "\(run.err)")
                #expect(run.out.contains("\"\(Self.name):\(server.port)\""), "\(run.out)")
            }
        }

        @Test func connectToSendsPort80ToTheServer() async throws {
            try await withTestServer { server in
                let run = try await CourierProcess.run([
                    "--print", "h", "--connect-to", "\(Self.name):80:127.0.0.1:\(server.port)",
                    "http://\(Self.name)/status/204",
                ])
                #expect(run.status == 0 && run.out.contains("204"), "\(run.out)\(run.err)")
                let refused = try await CourierProcess.run([
                    "--transport", "ahc", "--connect-to", "\(Self.name):80:127.0.0.1:\(server.port)",
                    "http://\(Self.name)/status/204",
                ])
                #expect(refused.status != 0 && refused.err.contains("same port"), "\(refused.err)")
            }
        }

        /// `--pinnedpubkey` against nginx with the test authority's certificate: the right pin
        /// (alone, or among wrong ones) is accepted with verification on; a wrong one fails, naming
        /// the host and the pin.
        @Test func pinnedPublicKeysAcceptOnlyThePinnedKey() async throws {
            let certificates = try await TestCertificates.make()
            defer { certificates.remove() }
            let right = try await certificates.publicKeyPin(of: certificates.loopback.certificate)
            let wrong = try await certificates.publicKeyPin(of: certificates.otherHost.certificate)
            try await NginxServer.serving(listen: "ssl", body: "pinned", tls: certificates.loopback) { nginx in
                let url = nginx.baseURL.absoluteString
                let trust = ["--print", "b", "--verify", certificates.authority.path]
                let alone = try await CourierProcess.run(trust + ["--pinnedpubkey", right, url])
                #expect(alone.status == 0 && alone.out.contains("pinned"), "\(alone.err)")
                let among = try await CourierProcess.run(
                    trust + ["--pinnedpubkey", "127.0.0.1=\(wrong);\(right)", url])
                #expect(among.status == 0, "\(among.err)")
                let refused = try await CourierProcess.run(trust + ["--pinnedpubkey", wrong, url])
                #expect(refused.status != 0, "\(refused.out)")
                #expect(refused.err.contains("127.0.0.1") && refused.err.contains(wrong), "\(refused.err)")
            }
        }

        @Test func malformedRoutesAndPinsAreUsageErrors() async throws {
            let route = try await CourierProcess.run(["--resolve", "example.org:80", "example.org"])
            #expect(route.status == 1 && route.err.contains("--resolve"), "\(route.err)")
            let pin = try await CourierProcess.run(["--pinnedpubkey", "sha1//abc", "example.org"])
            #expect(pin.status == 1 && pin.err.contains("--pinnedpubkey"), "\(pin.err)")
        }

        @Test func netrcIsReadUnlessIgnoredOrCredentialsAreGiven() async throws {
            let netrc = FileManager.default.temporaryDirectory.appendingPathComponent("netrc-\(UUID())")
            try "machine 127.0.0.1 login alice password wonder\n".write(to: netrc, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(at: netrc) }
            try await withTestServer { server in
                let url = "http://127.0.0.1:\(server.port)/basic-auth/alice/wonder"
                let environment = ["NETRC": netrc.path]
                let read = try await CourierProcess.run(["--print", "h", url], environment: environment)
                #expect(read.out.contains("200"), "\(read.out)\(read.err)")
                let ignored = try await CourierProcess.run(
                    ["--print", "h", "--ignore-netrc", url], environment: environment)
                #expect(ignored.out.contains("401"), "\(ignored.out)")
                let given = try await CourierProcess.run(
                    ["--print", "h", "--auth", "alice:other", url], environment: environment)
                #expect(given.out.contains("401"), "\(given.out)")
            }
        }
    }
}
