import ArgumentParser
import Courier
import CourierAsyncHTTPClient
import CourierCurl
import Foundation
import Logging

/// The options that shape the client: deadline, credentials, redirects, transport, status check,
/// and the stages `--retry`, `--verbose`, `--explain` and `--plugin` add to its interceptor chain.
struct PipelineOptions: ParsableArguments, Sendable {
    /// Which transport sends the request.
    enum TransportName: String, ExpressibleByArgument, CaseIterable, Sendable {
        /// libcurl (`CurlTransport`), the default.
        case curl
        /// AsyncHTTPClient (`AsyncHTTPClientTransport`) on SwiftNIO.
        case ahc
    }

    /// How `--auth` is used, as HTTPie's `--auth-type` says.
    enum AuthType: String, ExpressibleByArgument, CaseIterable, Sendable {
        /// `Authorization: Basic` on every request.
        case basic
        /// `--auth` is a token: `Authorization: Bearer`.
        case bearer
        /// HTTP Digest (RFC 7616): answers the server's challenge (`DigestAuthenticationInterceptor`).
        case digest
    }

    @Option(help: ArgumentHelp("The most seconds the whole exchange may take.", valueName: "seconds"))
    var timeout: Double?

    @Option(
        name: [.short, .long],
        help: ArgumentHelp(
            "Credentials: user:password (basic, digest) or a token (bearer).", valueName: "user:password"))
    var auth: String?

    @Option(
        name: [.customShort("A"), .long],
        help: ArgumentHelp(
            "How --auth is sent: basic, bearer or digest (HTTP Digest, RFC 7616).", valueName: "basic|bearer|digest"))
    var authType: AuthType = .basic

    @Option(help: ArgumentHelp("A bearer token (Authorization: Bearer …).", valueName: "token"))
    var bearer: String?

    @Flag(
        help:
            "Do not read credentials from ~/.netrc (or $NETRC), which are otherwise sent to their host when neither --auth nor --bearer is given, as HTTPie does."
    )
    var ignoreNetrc = false

    @Flag(name: [.customShort("F"), .long], help: "Follow redirects (not followed by default).")
    var follow = false

    @Option(help: "The most redirects --follow follows.")
    var maxRedirects = 30

    @Option(help: ArgumentHelp("The transport: curl (libcurl) or ahc (AsyncHTTPClient).", valueName: "curl|ahc"))
    var transport: TransportName = .curl

    @Flag(help: "Exit with 3, 4 or 5 for a 3xx, 4xx or 5xx response.")
    var checkStatus = false

    @Option(
        help: ArgumentHelp(
            "Retry a connection failure or a 408, 429, 500, 502, 503 or 504 up to N more times, with backoff (POST and PATCH only with an Idempotency-Key item).",
            valueName: "N"))
    var retry = 0

    @Flag(
        name: [.short, .long],
        help: "Log each exchange on standard error; -vv adds headers and bodies, secrets redacted.")
    var verbose: Int

    @Flag(
        help:
            "After the exchange, print which stage changed what and how long each took (standard error; standard output with --print '')."
    )
    var explain = false

    @Flag(help: "As --explain, as JSON.")
    var explainJson = false

    @Option(
        name: .customLong("cache"),
        help: ArgumentHelp(
            "Keep responses in a private HTTP cache (RFC 9111) in DIR, and answer from it while they are fresh; --cache alone uses $XDG_CACHE_HOME/courier/http (~/.cache/courier/http). Off by default.",
            valueName: "DIR"))
    var cacheDirectory: String?

    @Option(
        name: .customLong("plugin"),
        help: ArgumentHelp(
            "Load a C interceptor plugin, passing it the text after the first = (repeatable; first given is outermost).",
            valueName: "path.so[=config]"))
    var plugins: [String] = []

    init() {}

    func validate() throws {
        if let timeout, !(timeout > 0) { throw ValidationError("--timeout must be a positive number of seconds") }
        if maxRedirects < 0 { throw ValidationError("--max-redirects cannot be negative") }
        if auth != nil, bearer != nil { throw ValidationError("--auth and --bearer cannot be used together") }
        if let auth, authType != .bearer, !auth.contains(":") {
            throw ValidationError("--auth takes user:password with --auth-type \(authType.rawValue)")
        }
        if authType != .basic, auth == nil { throw ValidationError("--auth-type \(authType.rawValue) needs --auth") }
        if retry < 0 { throw ValidationError("--retry cannot be negative") }
        if explain, explainJson { throw ValidationError("--explain and --explain-json cannot be used together") }
        if cacheDirectory?.isEmpty == true { throw ValidationError("--cache= names no directory") }
        if let empty = plugins.first(where: { PluginArgument($0).path.isEmpty }) {
            throw ValidationError("--plugin \"\(empty)\" names no file")
        }
    }

    /// Whether `--explain` or `--explain-json` asks for an explanation.
    var explains: Bool { explain || explainJson }

    /// The credentials `--auth` or `--bearer` put on every request; Digest's are answers to a
    /// challenge instead (``digestAuthentication``).
    var credentials: RequestFactory.Credentials? {
        if let bearer { return .bearer(bearer) }
        if authType == .bearer, let auth { return .bearer(auth) }
        guard authType == .basic, let (user, password) = userAndPassword else { return nil }
        return .basic(username: user, password: password)
    }

    /// `--auth user:password` split at its first colon.
    private var userAndPassword: (String, String)? {
        guard let auth, let colon = auth.firstIndex(of: ":") else { return nil }
        return (String(auth[..<colon]), String(auth[auth.index(after: colon)...]))
    }

    /// The credentials a `--session` keeps: the command line's `--auth` (with its `--auth-type`) or
    /// `--bearer`; `nil` when it gives none.
    var sessionAuth: SessionFile.Auth? {
        if let bearer { return SessionFile.Auth(type: AuthType.bearer.rawValue, rawAuth: bearer) }
        return auth.map { SessionFile.Auth(type: authType.rawValue, rawAuth: $0) }
    }

    /// The stage `--auth-type digest` adds.
    var digestAuthentication: DigestAuthenticationInterceptor? {
        guard authType == .digest, let (user, password) = userAndPassword else { return nil }
        return DigestAuthenticationInterceptor(user: user, password: password)
    }

    /// The deadline `--timeout` sets.
    var deadline: Duration? { timeout.map { .milliseconds(Int64(($0 * 1000).rounded(.up))) } }

    /// The interceptors every request goes through, outermost first: each pipeline option that
    /// works through an interceptor adds it here, then `extra` (the demo's) come innermost.
    ///
    /// Credentials come first, so the log and the plugins see the request as it is sent (the log
    /// redacts them); logging next, one line per exchange however often retry resends; the cache
    /// next, so the log shows what it did and a hit costs no retry; retry outside the plugins, so
    /// a plugin runs again on every attempt.
    ///
    /// - Throws: `pluginFailed` for a `--plugin` that cannot be loaded.
    func interceptors(adding extra: [any Interceptor], console: Console) throws -> [any Interceptor] {
        var stages: [any Interceptor] = []
        if let credentials { stages.append(CredentialsStage.interceptor(credentials)) }
        if let digestAuthentication { stages.append(digestAuthentication) }
        if let logger = logger(console: console) {
            // `withClient` prints the transport's disabled checks itself, once, at any verbosity.
            stages.append(LoggingInterceptor(logger: logger, level: .info, warnsAboutDisabledSecurityChecks: false))
        }
        if let cacheDirectory {
            // Inside logging, so -v shows Cache-Status; outside retry, so a hit costs no attempt.
            stages.append(CacheInterceptor(storage: .directory(URL(fileURLWithPath: cacheDirectory))))
        }
        if retry > 0 {
            var policy = RetryInterceptor.Policy()
            policy.maxAttempts = retry + 1
            stages.append(RetryInterceptor(policy: policy, budget: .unlimited))
        }
        for plugin in plugins {
            stages.append(contentsOf: try PluginArgument(plugin).load(requestTimeout: deadline))
        }
        stages.append(contentsOf: extra)
        return stages
    }

    /// The logger `--verbose` writes to standard error: summaries at `-v`, everything at `-vv`.
    func logger(console: Console) -> Logger? {
        verbose > 0 ? LineLogHandler.logger(console: console, level: verbose > 1 ? .debug : .info) : nil
    }

    /// The client configuration: no default deadline (downloads may be long), redirects as asked.
    var configuration: Client.Configuration {
        var configuration = Client.Configuration()
        configuration.timeout = nil
        if let deadline, deadline < configuration.connectTimeout { configuration.connectTimeout = deadline }
        configuration.redirects = follow ? RedirectPolicy() : .disabled
        configuration.limits.maxRedirects = maxRedirects
        return configuration
    }

    /// Runs `body` with a client on the chosen transport, shutting the transport down afterwards.
    ///
    /// With `-vv` the client's logger is the verbose one too, so inner stages' debug lines (a retry
    /// and its wait) appear between the exchange's lines.
    func withClient<Result>(
        adding extra: [any Interceptor] = [], network: NetworkOptions = NetworkOptions(), console: Console,
        cookieJar: CookieJar? = nil, _ body: (Client) async throws -> Result
    ) async throws -> Result {
        let interceptors = try interceptors(adding: extra, console: console)
        var configuration = configuration
        configuration.cookieJar = cookieJar
        configuration.unixSocketPath = network.unixSocket
        if !ignoreNetrc, auth == nil, bearer == nil { configuration.netrc = try Netrc.standard() }
        if let logger = logger(console: console) { configuration.logger = logger }
        let transport: any Transport
        let shutdown: @Sendable () async -> Void
        switch self.transport {
        case .curl where network.isDefault:
            transport = CurlTransport.shared
            shutdown = {}
        case .curl:
            let curl = try network.curlTransport()
            transport = curl
            shutdown = { await curl.shutdown() }
        case .ahc:
            let ahc = AsyncHTTPClientTransport(configuration: try network.asyncHTTPClientConfiguration())
            transport = ahc
            shutdown = { try? await ahc.shutdown() }
        }
        for check in transport.disabledSecurityChecks {
            console.err("courier: warning: \(check) (--verify \(network.verify))\n")
        }
        let client = Client(transport: transport, interceptors: interceptors, configuration: configuration)
        do {
            let result = try await body(client)
            await shutdown()
            return result
        } catch {
            await shutdown()
            throw error
        }
    }
}
