import CourierAsyncHTTPClient
import CourierCurl
import CourierRecording
import CourierTestServer
import Foundation
import HTTPTypes
import Logging
import Testing

@testable import Courier

@Suite("Logging interceptor")
struct LoggingInterceptorTests {
    static let secrets = [
        "bearer-secret-0042", "cookie-secret-0042", "apikey-secret-0042", "query-secret-0042",
        "session-secret-0042",
    ]

    static let redaction = Redaction(headers: [HTTPField.Name("X-Api-Key")!], queryItems: ["api_key"])

    /// Answers with a `Set-Cookie` and echoes the request, secrets included, in its body.
    static let login = Route("/login") { request in
        var response = try TestServerResponse.json(EchoedRequest(request))
        response.headers.append(("Set-Cookie", "session=session-secret-0042; Path=/; HttpOnly"))
        return response
    }

    static func secretRequest(_ server: TestServer) throws -> Request {
        try secretRequest(base: server.baseURL)
    }

    static func secretRequest(base: URL) throws -> Request {
        try URL(string: base.absoluteString + "/login?api_key=query-secret-0042&page=2")!.buildRequest {
            Method.POST
            Authorization.bearer("bearer-secret-0042")
            Header.custom("Cookie").setValue("theme=dark; sid=cookie-secret-0042")
            Header.custom("X-Api-Key").setValue("apikey-secret-0042")
            RequestBody.string("hello")
        }
    }

    @Test func redactionHidesTheURLPasswordAndNamedQueryValues() throws {
        let redaction = Redaction(queryItems: ["Token"])
        let url = try #require(URL(string: "https://ada:hunter2-long@api.example.com/x?token=abc123456&q=swift"))
        #expect(
            redaction.redacting(url).absoluteString
                == "https://%3Credacted%3E:%3Credacted%3E@api.example.com/x?token=%3Credacted%3E&q=swift")
        let token = try #require(URL(string: "https://ghp_token0042secret@api.example.com/repos"))
        #expect(redaction.redacting(token).absoluteString == "https://%3Credacted%3E@api.example.com/repos")
        var fields = HTTPFields()
        fields[.authorization] = "Bearer abcdef123456"
        fields[.accept] = "text/plain"
        #expect(lines(redaction.redacting(fields)) == ["Authorization: <redacted>", "Accept: text/plain"])
    }

    @Test func scrubbingCutsCredentialsButNotSchemesOrCookieAttributes() {
        let redaction = Redaction()
        var fields = HTTPFields()
        fields[.authorization] = "Bearer token-abcdef"
        fields[.setCookie] = "session=cookie-value-1; Domain=api.example.com; HttpOnly"
        let text = "Bearer token-abcdef sent; cookie-value-1 set for api.example.com, HttpOnly"
        #expect(
            redaction.scrubbing(text, secretsFrom: fields)
                == "<redacted> sent; <redacted> set for api.example.com, HttpOnly")
        #expect(
            redaction.scrubbing("WWW-Authenticate: Bearer realm=x", secretsFrom: fields)
                == "WWW-Authenticate: Bearer realm=x")
    }

    @Test(arguments: ServerTransport.all)
    func logsOneLinePerExchangeByDefault(transport: ServerTransport) async throws {
        let capture = LogCapture()
        try await withTestServer { server in
            let client = transport.client(interceptors: [LoggingInterceptor(logger: capture.logger(level: .info))])
            _ = try await client.send(Request(url: server.url("/status/201")))
            let lines = capture.all
            #expect(lines.count == 1)
            let line = try #require(lines.first)
            #expect(line.hasPrefix("info GET \(server.baseURL.absoluteString)/status/201 → 201 Created (0 bytes, "))
            #expect(line.contains("status=201"))
            #expect(line.contains("request-id=req-"))
        }
    }

    @Test(arguments: ServerTransport.all)
    func usesTheClientsLoggerWhenGivenNone(transport: ServerTransport) async throws {
        let capture = LogCapture()
        try await withTestServer { server in
            var configuration = Client.Configuration()
            configuration.logger = capture.logger(level: .info)
            let client = transport.client(interceptors: [LoggingInterceptor()], configuration: configuration)
            _ = try await client.send(Request(url: server.url("/status/200")))
            #expect(capture.all.count == 1)
        }
    }

    @Test(arguments: ServerTransport.all)
    func redactionHidesSecretsInEveryLogLine(transport: ServerTransport) async throws {
        let capture = LogCapture()
        try await withTestServer(routes: Route.defaults + [Self.login]) { server in
            let logging = LoggingInterceptor(
                logger: capture.logger(level: .debug), redaction: Self.redaction, logsCurlCommand: true)
            let response = try await transport.client(interceptors: [logging]).send(Self.secretRequest(server))
            #expect(response.status == .ok)
            #expect(response.text.contains("bearer-secret-0042"), "the response itself is untouched")
            let lines = capture.all
            #expect(lines.count == 4)
            for line in lines {
                for secret in Self.secrets {
                    #expect(!line.contains(secret), "\(secret) leaked in: \(line)")
                }
            }
            let all = lines.joined(separator: "\n")
            #expect(all.contains("Authorization: <redacted>"))
            #expect(all.contains("Cookie: <redacted>"))
            #expect(all.contains("X-Api-Key: <redacted>"))
            #expect(all.contains("Set-Cookie: <redacted>"))
            #expect(all.contains("api_key=%3Credacted%3E&page=2"))
            #expect(all.contains("curl '"))
            #expect(all.contains("-H 'Authorization: <redacted>'"))
            #expect(all.contains("\n\nhello"), "the request body is logged at debug")
        }
    }

    @Test(arguments: ServerTransport.all)
    func atDebugTheResponseBodyIsLoggedAndStillReturned(transport: ServerTransport) async throws {
        let capture = LogCapture()
        try await withTestServer { server in
            let client = transport.client(interceptors: [
                LoggingInterceptor(logger: capture.logger(level: .debug), maxLoggedBodyBytes: 10)
            ])
            let response = try await client.stream(Request(url: server.url("/bytes/100")))
            #expect(!response.isStreaming)
            #expect(response.body.count == 100)
            let responseEntry = try #require(capture.all.first { $0.hasPrefix("debug ← 200") })
            // The first 10 bytes (0x00 to 0x09) are valid UTF-8, so they are shown and the rest is cut.
            #expect(responseEntry.contains("(90 more bytes not logged)"))
        }
    }

    @Test(arguments: ServerTransport.all)
    func aboveDebugTheBodyKeepsStreaming(transport: ServerTransport) async throws {
        let capture = LogCapture()
        try await withTestServer { server in
            let client = transport.client(interceptors: [LoggingInterceptor(logger: capture.logger(level: .info))])
            let response = try await client.stream(Request(url: server.url("/bytes/100")))
            #expect(response.isStreaming)
            #expect(try await response.collectingBody(upTo: 1000).body.count == 100)
            #expect(capture.all.first?.contains("(100 bytes, ") == true)
        }
    }

    /// A token given as the URL's user (`https://TOKEN@host/`) reaches no log line, HAR entry or
    /// explanation, as a password there does not.
    @Test(arguments: ServerTransport.all)
    func aTokenInTheURLsUserPartIsHiddenWhereverPasswordsAre(transport: ServerTransport) async throws {
        let token = "ghp-token-secret-0042"
        let capture = LogCapture()
        try await withTestServer { server in
            let url = try #require(URL(string: "http://\(token)@127.0.0.1:\(server.port)/status/200"))
            let recorder = HARRecorder()
            let logging = LoggingInterceptor(logger: capture.logger(level: .debug), logsCurlCommand: true)
            let (client, explained) = transport.client(interceptors: [logging, recorder]).explaining()
            let response = try await client.send(Request(url: url))
            #expect(response.status == .ok)
            let har = String(decoding: try recorder.archive.jsonData(), as: UTF8.self)
            let explanation = try #require(explained.last).text
            for (place, text) in [("log", capture.all.joined(separator: "\n")), ("HAR", har), ("explain", explanation)]
            {
                #expect(!text.contains(token), "the token leaked in the \(place): \(text)")
                #expect(!text.isEmpty)
            }
            #expect(capture.all.joined().contains("%3Credacted%3E@127.0.0.1"))
        }
    }

    /// A transport with TLS verification off gets one warning line, the first time the
    /// interceptor sees it, as curl's `-k` shows in `--verbose`; another such transport its own.
    @Test(arguments: ServerTransport.all)
    func turningTLSVerificationOffIsWarnedAboutOncePerTransport(transport: ServerTransport) async throws {
        let capture = LogCapture()
        var tls = TLSSettings()
        tls.verifiesPeer = false
        func makeTransport() -> any Transport {
            switch transport {
            case .curl:
                var configuration = CurlTransport.Configuration()
                configuration.tls = tls
                return CurlTransport(configuration: configuration)
            case .asyncHTTPClient:
                var configuration = AsyncHTTPClientTransport.Configuration()
                configuration.tls = tls
                return AsyncHTTPClientTransport(configuration: configuration)
            }
        }
        let logging = LoggingInterceptor(logger: capture.logger(level: .info))
        let first = makeTransport()
        let second = makeTransport()
        func exchange() async throws {
            try await withTestServer { server in
                for client in [
                    Client(transport: first, interceptors: [logging]),
                    Client(transport: second, interceptors: [logging]),
                ] {
                    for _ in 0..<3 { _ = try await client.send(Request(url: server.url("/status/204"))) }
                }
            }
            let warnings = capture.all.filter { $0.hasPrefix("warning ") }
            #expect(warnings.count == 2, "\(capture.all)")
            #expect(
                warnings.allSatisfy {
                    $0.hasPrefix(
                        "warning TLS certificate verification is off: any server can pose as the one asked for")
                }, "\(warnings)")
            #expect(capture.all.count == 8, "six summaries and two warnings: \(capture.all)")
            let quiet = LogCapture()
            let unwarned = LoggingInterceptor(
                logger: quiet.logger(level: .info), warnsAboutDisabledSecurityChecks: false)
            try await withTestServer { server in
                _ = try await Client(transport: first, interceptors: [unwarned]).send(
                    Request(url: server.url("/status/204")))
            }
            #expect(!quiet.all.contains { $0.hasPrefix("warning ") })
        }
        // Shut down on every path: an AsyncHTTPClient dropped unshut traps in debug builds, which
        // would end the whole test run instead of failing this test.
        let failure: (any Error)?
        do {
            try await exchange()
            failure = nil
        } catch {
            failure = error
        }
        await (first as? CurlTransport)?.shutdown()
        await (second as? CurlTransport)?.shutdown()
        try? await (first as? AsyncHTTPClientTransport)?.shutdown()
        try? await (second as? AsyncHTTPClientTransport)?.shutdown()
        if let failure { throw failure }
    }

    @Test func aFailureIsOneLineNamingTheErrorCodeWithoutSecrets() async throws {
        let capture = LogCapture()
        // Port 1 on loopback: privileged and never listened on, whereas a stopped test server's port
        // may already have gone to another suite's server.
        let request = try Self.secretRequest(base: URL(string: "http://127.0.0.1:1")!)
        let client = Client(interceptors: [
            LoggingInterceptor(logger: capture.logger(level: .info), redaction: Self.redaction)
        ])
        await #expect(throws: CourierError.self) { try await client.send(request) }
        let lines = capture.all
        #expect(lines.count == 1)
        #expect(lines.first?.contains("failed: cannotConnect") == true)
        #expect(lines.first?.contains("error=cannotConnect") == true)
        for secret in Self.secrets { #expect(lines.first?.contains(secret) == false) }
    }
}
