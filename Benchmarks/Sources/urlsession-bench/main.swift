import BenchLoad
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The raw URLSession baseline (FoundationNetworking on Linux): `data(for:)` on an ephemeral
// session, one at a time or `--in-flight K` at once, with `httpMaximumConnectionsPerHost` set to
// `--per-host` (default K), so K in flight means K connections as in every other row. URLSession
// always asks for compressed bodies and decodes them, as every row does. What a Linux app that
// keeps URLSession has today, beside which Courier on URLSessionTransport and on libcurl are read.

/// Runs the baseline, invalidating its session whatever happens.
func measure(_ options: LoadOptions) async throws -> LoadResult {
    guard let url = URL(string: options.url) else { throw LoadError.usage("--url does not parse") }
    let configuration = URLSessionConfiguration.ephemeral
    configuration.httpMaximumConnectionsPerHost = options.connectionsPerHost
    let session = URLSession(configuration: configuration)
    defer { session.invalidateAndCancel() }
    let request = URLRequest(url: url)
    return try await LoadRunner.run(options) {
        let (body, response) = try await session.data(for: request)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard status == 200, !body.isEmpty else {
            throw LoadError.badResponse("\(status) with \(body.count) body bytes")
        }
    }
}

do {
    let options = try LoadOptions(arguments: Array(CommandLine.arguments.dropFirst()), defaultScenario: "urlsession")
    guard !options.http2 else { throw LoadError.usage("urlsession-bench speaks HTTP/1.1 only") }
    try await measure(options).report(scenario: options.scenario, perHost: options.connectionsPerHost)
} catch {
    FileHandle.standardError.write(Data("urlsession-bench: \(error)\n".utf8))
    exit(1)
}
