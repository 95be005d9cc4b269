import ArgumentParser
import Courier
import CourierAsyncHTTPClient
import CourierCurl

/// The options that shape the client: deadline, credentials, redirects, transport and status check.
struct PipelineOptions: ParsableArguments, Sendable {
    /// Which transport sends the request.
    enum TransportName: String, ExpressibleByArgument, CaseIterable, Sendable {
        /// libcurl (`CurlTransport`), the default.
        case curl
        /// AsyncHTTPClient (`AsyncHTTPClientTransport`) on SwiftNIO.
        case ahc
    }

    @Option(help: ArgumentHelp("The most seconds the whole exchange may take.", valueName: "seconds"))
    var timeout: Double?

    @Option(name: [.short, .long], help: ArgumentHelp("Basic credentials.", valueName: "user:password"))
    var auth: String?

    @Option(help: ArgumentHelp("A bearer token (Authorization: Bearer …).", valueName: "token"))
    var bearer: String?

    @Flag(name: [.customShort("F"), .long], help: "Follow redirects (not followed by default).")
    var follow = false

    @Option(help: "The most redirects --follow follows.")
    var maxRedirects = 30

    @Option(help: ArgumentHelp("The transport: curl (libcurl) or ahc (AsyncHTTPClient).", valueName: "curl|ahc"))
    var transport: TransportName = .curl

    @Flag(help: "Exit with 3, 4 or 5 for a 3xx, 4xx or 5xx response.")
    var checkStatus = false

    init() {}

    func validate() throws {
        if let timeout, !(timeout > 0) { throw ValidationError("--timeout must be a positive number of seconds") }
        if maxRedirects < 0 { throw ValidationError("--max-redirects cannot be negative") }
        if auth != nil, bearer != nil { throw ValidationError("--auth and --bearer cannot be used together") }
        if let auth, !auth.contains(":") { throw ValidationError("--auth takes user:password") }
    }

    /// The credentials `--auth` or `--bearer` give.
    var credentials: RequestFactory.Credentials? {
        if let bearer { return .bearer(bearer) }
        guard let auth, let colon = auth.firstIndex(of: ":") else { return nil }
        return .basic(username: String(auth[..<colon]), password: String(auth[auth.index(after: colon)...]))
    }

    /// The deadline `--timeout` sets.
    var deadline: Duration? { timeout.map { .milliseconds(Int64(($0 * 1000).rounded(.up))) } }

    /// The interceptors every request goes through, outermost first: each pipeline option that
    /// works through an interceptor adds it here, then `extra` (the demo's) come innermost.
    func interceptors(adding extra: [any Interceptor]) -> [any Interceptor] {
        var stages: [any Interceptor] = []
        stages.append(contentsOf: extra)
        return stages
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
    func withClient<Result>(adding extra: [any Interceptor] = [],
                            _ body: (Client) async throws -> Result) async throws -> Result {
        switch transport {
        case .curl:
            return try await body(Client(transport: CurlTransport.shared, interceptors: interceptors(adding: extra),
                                         configuration: configuration))
        case .ahc:
            let transport = AsyncHTTPClientTransport()
            let client = Client(transport: transport, interceptors: interceptors(adding: extra), configuration: configuration)
            do {
                let result = try await body(client)
                try? await transport.shutdown()
                return result
            } catch {
                try? await transport.shutdown()
                throw error
            }
        }
    }
}
