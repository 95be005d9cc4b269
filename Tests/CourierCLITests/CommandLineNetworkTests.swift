import CourierTestServer
import Foundation
import TestProcesses
import Testing

extension CourierExecutableTests {
    /// HTTPie's TLS and proxy options on the built `courier`: `--proxy` through a real forward
    /// proxy, `--verify`, `--cert`/`--cert-key` and `--ssl` against nginx with a throwaway authority.
    @Suite("TLS and proxy options")
    struct CommandLineNetworkTests {
        @Test(arguments: ["curl", "ahc"])
        func proxyForTheHTTPSchemeCarriesTheRequest(transport: String) async throws {
            let proxy = try await ForwardProxy.start(credentials: (user: "cli", password: "pw"))
            let outcome: CourierRun
            do {
                outcome = try await withTestServer { server in
                    try await CourierProcess.run([
                        "--transport", transport, "--print", "b",
                        "--proxy", "http:http://cli:pw@127.0.0.1:\(proxy.port)",
                        "http://127.0.0.1:\(server.port)/anything/via",
                    ])
                }
            } catch {
                try await proxy.shutdown()
                throw error
            }
            try await proxy.shutdown()
            #expect(outcome.status == 0, "\(outcome.err)")
            #expect(outcome.out.contains("/anything/via"))
            #expect(proxy.forwarded.contains { $0.wasAuthorized }, "\(proxy.forwarded)")
        }

        @Test func aProxyForAnotherSchemeOrMalformedIsAUsageError() async throws {
            let run = try await CourierProcess.run(["--proxy", "ftp:http://proxy:21", "example.org"])
            #expect(run.status == 1 && run.err.contains("--proxy takes http:URL or https:URL"), "\(run.err)")
            let missing = try await CourierProcess.run(["--verify", "/nonexistent/ca.pem", "example.org"])
            #expect(
                missing.status == 1 && missing.err.contains("--verify takes yes, no, or a CA bundle"), "\(missing.err)")
        }

        @Test func verifyCertAndSSLReachTheServer() async throws {
            let certificates = try await TestCertificates.make()
            defer { certificates.remove() }
            let directives =
                "ssl_protocols TLSv1.2; ssl_verify_client optional; ssl_client_certificate \(certificates.authority.path);"
            try await NginxServer.serving(
                listen: "ssl", body: "[$ssl_client_s_dn]", tls: certificates.loopback, directives: directives
            ) { nginx in
                let url = nginx.baseURL.absoluteString
                let untrusted = try await CourierProcess.run(["--print", "b", url])
                #expect(untrusted.status != 0, "an unknown authority is refused: \(untrusted.out)")

                // Turning verification off is visible: one warning line, as curl's -k shows in --verbose.
                let unverified = try await CourierProcess.run(["--print", "b", "--verify", "no", url])
                #expect(unverified.status == 0 && unverified.out.contains("[]"), "\(unverified.err)")
                #expect(
                    unverified.errLines == [
                        "courier: warning: TLS certificate verification is off: any server can pose as the one asked for (--verify no)"
                    ], "\(unverified.err)")
                let verbose = try await CourierProcess.run(["--print", "b", "-v", "--verify", "no", url])
                #expect(verbose.errLines.filter { $0.contains("verification is off") }.count == 1, "\(verbose.err)")
                let quiet = try await CourierProcess.run(["--print", "b", "-qq", "--verify", "no", url])
                #expect(quiet.err.isEmpty, "-qq prints errors only: \(quiet.err)")

                let trusted = try await CourierProcess.run([
                    "--print", "b", "--verify", certificates.authority.path, url,
                ])
                #expect(trusted.status == 0 && trusted.out.contains("[]"), "\(trusted.err)")

                let identified = try await CourierProcess.run([
                    "--print", "b", "--verify", certificates.authority.path,
                    "--cert", certificates.client.certificate.path, "--cert-key", certificates.client.key.path, url,
                ])
                #expect(identified.out.contains("[CN=Courier Test Client]"), "\(identified.err)")

                let tooOld = try await CourierProcess.run(["--print", "b", "--verify", "no", "--ssl", "tls1.3", url])
                #expect(tooOld.status != 0, "nginx speaks only TLS 1.2: \(tooOld.out)")
            }
        }
    }
}
