import CourierTestServer
import Foundation
import TestProcesses
import Testing

/// The C test programs in c/, each compiled with `cc -std=c99 -Wall -Wextra -Werror -pedantic`
/// against courier.h and the C library (libCourierC.so) and run under valgrind against a loopback test server.
/// One at a time: each runs many threads under valgrind, and the machine has two cores.
@Suite(.serialized)
struct CProgramTests {
    /// Compiles and runs one program with the server's URL (and `extraArguments`); expects exit 0.
    private func runProgram(_ name: String, extraArguments: [String] = []) async throws {
        let artifacts = try await CAPIArtifacts.shared.value
        let program = try await artifacts.compileTest(name)
        let outcome = try await withTestServer { server in
            try await artifacts.runChecked(program, [server.baseURL.absoluteString] + extraArguments)
        }
        #expect(outcome.status == 0, "\(outcome)")
        #expect(outcome.output.contains("\(name): "), "\(outcome)")
        #expect(outcome.output.contains(" 0 failed"), "\(outcome)")
    }

    @Test func objectsValidateInputAndKeepState() async throws {
        try await runProgram("test_api")
    }

    @Test func sendsStreamsCancelsAndCompletesOnce() async throws {
        try await runProgram("test_send")
    }

    /// Slow on_data readers hold only their own threads, should_cancel stops a blocking send
    /// (ABI 1.2), and a server's escape bytes reach error messages escaped; on both transports.
    @Test func slowReadersCancelChecksAndHostileServerBytes() async throws {
        try await runProgram("test_hostile")
    }

    /// The fork rule: in a forked worker, the parent's clients refuse every call at once with
    /// COURIER_E_FORKED and clients the worker makes get their own answers (ABI 1.2). Run natively,
    /// three times (each forks its workers while sends are under way): valgrind's leak check in a
    /// child reports as lost what only the parent's threads referred to, and gcc's AddressSanitizer
    /// runtime is not fork-safe (a worker inherited its allocator's spin lock held and hung).
    @Test func aForkedWorkerRefusesItsParentsClientsAndUsesItsOwn() async throws {
        let artifacts = try await CAPIArtifacts.shared.value
        let program = try await artifacts.compileTest("test_fork")
        for _ in 0..<3 {
            let outcome = try await withTestServer { server in
                try await artifacts.runNative(program, [server.baseURL.absoluteString])
            }
            #expect(outcome.status == 0, "\(outcome)")
            #expect(outcome.output.contains("test_fork: "), "\(outcome)")
            #expect(outcome.output.contains(" 0 failed"), "\(outcome)")
        }
    }

    @Test func interceptorsTakeEveryActionAndNeverDeadlock() async throws {
        try await runProgram("test_interceptors")
    }

    /// Courier's own interceptors, added by name and JSON configuration (ABI 1.1).
    @Test func builtInInterceptorsJoinTheChainByNameAndRefuseBadConfiguration() async throws {
        try await runProgram("test_builtins")
    }

    /// ABI 1.1's client options on both transports, through a forward proxy that asks for
    /// credentials; the proxy's record shows which requests reached it, and with what.
    /// Run under valgrind, and again built with AddressSanitizer and UndefinedBehaviorSanitizer.
    @Test(arguments: [false, true]) func clientOptionsOfABI11WorkOnBothTransports(sanitized: Bool) async throws {
        let artifacts = try await CAPIArtifacts.shared.value
        let program = try await artifacts.compileTest("test_options", sanitized: sanitized)
        let run = sanitized ? artifacts.runNative : artifacts.runChecked
        let proxy = try await ForwardProxy.start(credentials: (user: "courier", password: "s3cret"))
        let cookieFile = artifacts.work.appendingPathComponent("cookies-\(UUID()).txt").path
        let socket = "/tmp/courier-c-\(UUID().uuidString.prefix(8)).sock"
        let outcome: CommandOutcome
        do {
            outcome = try await withTestServer(unixSocketPath: socket) { server in
                try await run(program, [server.baseURL.absoluteString, "127.0.0.1:\(proxy.port)", cookieFile, socket])
            }
        } catch {
            try await proxy.shutdown()
            throw error
        }
        try await proxy.shutdown()
        #expect(outcome.status == 0, "\(outcome)")
        #expect(outcome.output.contains(" 0 failed"), "\(outcome)")
        let forwarded = proxy.forwarded
        // curl sends plain-http requests to the proxy in absolute form; AsyncHTTPClient tunnels them.
        #expect(
            forwarded.contains { $0.method == "GET" && $0.target.hasSuffix("/anything/proxied") && $0.wasAuthorized })
        #expect(forwarded.contains { $0.method == "CONNECT" && $0.wasAuthorized })
        #expect(forwarded.contains { $0.target.hasSuffix("/anything/from-environment") && !$0.wasAuthorized })
        // curl's request, in absolute form: libcurl read the process's no_proxy and went direct
        // until Courier set CURLOPT_NOPROXY (AsyncHTTPClient never reads it, and tunnels).
        #expect(forwarded.contains { $0.target.hasSuffix("/anything/explicit-despite-no-proxy") })
        #expect(
            !forwarded.contains {
                $0.target.contains("/anything/ignoring-environment") || $0.target.contains("/anything/bypassed")
            })
        #expect(
            forwarded.allSatisfy {
                $0.proxyAuthorization == nil || $0.wasAuthorized
                    || $0.proxyAuthorization == "Basic " + Data("courier:wr0ng-pa55".utf8).base64EncodedString()
            })
    }

    /// ABI 1.1's TLS options from C on both transports, against nginx asking for a client
    /// certificate, and against a second nginx whose certificate names another host and which
    /// speaks HTTP/2 and answers with the protocol (skip_host_verification and http_version).
    /// Run natively, and again built with AddressSanitizer and UndefinedBehaviorSanitizer.
    @Test(.timeLimit(.minutes(3)), arguments: [false, true])
    func tlsOptionsOfABI11ReachMutualTLSOnBothTransports(sanitized: Bool) async throws {
        let artifacts = try await CAPIArtifacts.shared.value
        let program = try await artifacts.compileTest("test_tls", sanitized: sanitized)
        let certificates = try await TestCertificates.make()
        defer { certificates.remove() }
        let directives =
            "ssl_protocols TLSv1.2 TLSv1.3; ssl_verify_client on; ssl_client_certificate \(certificates.authority.path);"
        let outcome = try await NginxServer.serving(
            listen: "ssl", body: "$ssl_client_s_dn", tls: certificates.loopback,
            directives: directives
        ) { nginx in
            try await NginxServer.serving(listen: "ssl http2", body: "$server_protocol", tls: certificates.otherHost) {
                otherHost in
                try await artifacts.runNative(
                    program,
                    [
                        nginx.baseURL.absoluteString, certificates.authority.path, certificates.authorityDirectory.path,
                        certificates.client.certificate.path, certificates.client.key.path,
                        certificates.encryptedClientKey.path,
                        certificates.encryptedClientKeyPassword, otherHost.baseURL.absoluteString,
                        try await certificates.publicKeyPin(of: certificates.loopback.certificate),
                        try await certificates.publicKeyPin(of: certificates.otherHost.certificate),
                    ])
            }
        }
        #expect(outcome.status == 0, "\(outcome)")
        #expect(outcome.output.contains("test_tls: "), "\(outcome)")
        #expect(outcome.output.contains(" 0 failed"), "\(outcome)")
        #expect(!outcome.output.contains("Sanitizer"), "\(outcome)")
    }

    /// The header's poll() example, complete: completions run on the program's own thread.
    @Test func completionsRunInTheProgramsOwnPollLoop() async throws {
        try await runProgram("test_event_loop")
    }

    /// ABI 1.1's connection limits by their effect: the server never has more requests at once
    /// than max_connections_per_host or max_connections allow, on either transport.
    @Test func connectionLimitsOfABI11HoldOnBothTransports() async throws {
        try await runProgram("test_limits")
    }

    /// idle_timeout_ms closes a connection idle longer than it, on both transports, and curl
    /// reuses one idle for less than the default; the server counts the connections it accepted.
    @Test(arguments: [("idle", "curl", 2), ("idle", "ahc", 2), ("reuse", "curl", 1)])
    func idleTimeoutDecidesWhetherTheNextSendReusesTheConnection(
        mode: String, transport: String, connections: Int
    ) async throws {
        let artifacts = try await CAPIArtifacts.shared.value
        let program = try await artifacts.compileTest("test_limits")
        let (outcome, accepted) = try await withTestServer { server in
            (
                try await artifacts.runNative(program, [server.baseURL.absoluteString, mode, transport]),
                server.acceptedConnectionCount
            )
        }
        #expect(outcome.status == 0 && outcome.output.contains(" 0 failed"), "\(outcome)")
        #expect(accepted == connections, "\(mode) on \(transport): the server accepted \(accepted) connections")
    }

    /// A program compiled against the ABI 1.0 header, kept in c/abi-1.0, runs against this library.
    @Test func aProgramBuiltAgainstABI10RunsUnchanged() async throws {
        let artifacts = try await CAPIArtifacts.shared.value
        let program = try await artifacts.compileTest(
            "test_abi_1_0", headers: artifacts.cSources.appendingPathComponent("abi-1.0").path)
        let outcome = try await withTestServer { server in
            try await artifacts.runChecked(program, [server.baseURL.absoluteString])
        }
        #expect(outcome.status == 0, "\(outcome)")
        #expect(outcome.output.contains("test_abi_1_0: "), "\(outcome)")
        #expect(outcome.output.contains(" 0 failed"), "\(outcome)")
    }

    @Test func misusedHandlesReturnErrorsInsteadOfCrashing() async throws {
        try await runProgram("test_handles")
    }

    @Test func pluginsLoadSignCacheAndFailCleanly() async throws {
        let artifacts = try await CAPIArtifacts.shared.value
        try await runProgram("test_plugins", extraArguments: [artifacts.pluginDirectory.path])
    }

    @Test func structsAreReadByTheirSizeAndFreedClientsLoseNoCompletion() async throws {
        let artifacts = try await CAPIArtifacts.shared.value
        try await runProgram("test_lifecycle", extraArguments: [artifacts.pluginDirectory.path, "10"])
    }

    /// The race between `courier_client_send_async` and `courier_client_free`, 1,000 times per
    /// transport: too many for valgrind, so the same program runs natively.
    @Test func sendsRacingAFreeCompleteOnceOrFail() async throws {
        let artifacts = try await CAPIArtifacts.shared.value
        let program = try await artifacts.compileTest("test_lifecycle")
        let outcome = try await withTestServer { server in
            try await artifacts.runNative(
                program, [server.baseURL.absoluteString, artifacts.pluginDirectory.path, "1000"])
        }
        #expect(outcome.status == 0, "\(outcome)")
        #expect(outcome.output.contains("test_lifecycle: "), "\(outcome)")
        #expect(outcome.output.contains(" 0 failed"), "\(outcome)")
    }

    /// 1,000 sends in flight through one C client, then three rounds of 10,000 with resident
    /// memory and descriptors measured after each: natively, since valgrind would take minutes.
    @Test func manySendsThroughOneClientKeepMemoryAndDescriptorsFlat() async throws {
        let artifacts = try await CAPIArtifacts.shared.value
        let program = try await artifacts.compileTest("test_load")
        let outcome = try await withTestServer { server in
            try await artifacts.runNative(program, [server.baseURL.absoluteString, "10000"])
        }
        #expect(outcome.status == 0, "\(outcome)")
        #expect(outcome.output.contains("test_load: "), "\(outcome)")
        #expect(outcome.output.contains(" 0 failed"), "\(outcome)")
    }

    /// Every C program again, built with AddressSanitizer and UndefinedBehaviorSanitizer.
    /// test_options and test_tls, which need a proxy or nginx, have their sanitized runs beside their valgrind ones.
    @Test(arguments: [
        "test_api", "test_handles", "test_send", "test_interceptors", "test_lifecycle", "test_plugins", "test_builtins",
        "test_event_loop", "test_limits", "test_abi_1_0",
    ])
    func programsRunCleanUnderAddressAndUndefinedBehaviorSanitizers(_ name: String) async throws {
        let artifacts = try await CAPIArtifacts.shared.value
        let program = try await artifacts.compileTest(
            name,
            sanitized: true,
            headers: name == "test_abi_1_0" ? artifacts.cSources.appendingPathComponent("abi-1.0").path : nil)
        let extra = ["test_plugins", "test_lifecycle"].contains(name) ? [artifacts.pluginDirectory.path] : []
        let outcome = try await withTestServer { server in
            try await artifacts.runNative(program, [server.baseURL.absoluteString] + extra)
        }
        #expect(outcome.status == 0, "\(outcome)")
        #expect(outcome.output.contains("\(name): "), "\(outcome)")
        #expect(outcome.output.contains(" 0 failed"), "\(outcome)")
        #expect(!outcome.output.contains("Sanitizer"), "\(outcome)")
    }

    /// The hmac_signer plugin's HMAC(EVP_sha256(), …) call against RFC 4231's vectors.
    @Test func signerHashMatchesRFC4231Vectors() async throws {
        let artifacts = try await CAPIArtifacts.shared.value
        let program = artifacts.work.appendingPathComponent("bin/test_hmac_sha256")
        try artifacts.require(
            await ProcessRunner.run(
                ["cc"] + CAPIArtifacts.strictC + [
                    "-o", program.path,
                    artifacts.cSources.appendingPathComponent("test_hmac_sha256.c").path, "-lcrypto",
                ]))
        let outcome = try await artifacts.runChecked(program, [])
        #expect(outcome.status == 0, "\(outcome)")
        #expect(outcome.output.contains("test_hmac_sha256: 0 vectors failed"), "\(outcome)")
    }
}
