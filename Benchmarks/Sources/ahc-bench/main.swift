import AsyncHTTPClient
import BenchLoad
import Foundation
import NIOCore
import NIOHTTP1
import NIOHTTPCompression

// The raw AsyncHTTPClient baseline: `execute(_:timeout:)` and collect the body, one at a time or
// `--in-flight K` at once. Its own client allows `--per-host` connections to the host (default K;
// the shared client allows 8), so K in flight means K connections, as with wrk -c and the libcurl
// multi baseline, and it asks for compressed bodies (decompression on), as every row does.
// `--no-tracer` gives the client no tracer instead of AsyncHTTPClient's default, the bootstrapped
// one (here a no-op tracer), as Courier's AHC transport does when none is bootstrapped.

/// Runs the baseline, shutting its client down whatever happens.
func measure(_ options: LoadOptions, tracing: Bool) async throws -> LoadResult {
    var configuration = HTTPClient.Configuration()
    if !tracing { configuration.tracing.tracer = nil }
    configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = options.connectionsPerHost
    configuration.decompression = .enabled(limit: .none)
    let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    let request = HTTPClientRequest(url: options.url)
    let outcome: Result<LoadResult, any Error>
    do {
        outcome = .success(try await LoadRunner.run(options) {
            let response = try await client.execute(request, timeout: .seconds(10))
            let body = try await response.body.collect(upTo: 1 << 20)
            guard response.status == .ok, body.readableBytes > 0 else {
                throw LoadError.badResponse("\(response.status) with \(body.readableBytes) body bytes")
            }
        })
    } catch {
        outcome = .failure(error)
    }
    try await client.shutdown()
    return try outcome.get()
}

do {
    var arguments = Array(CommandLine.arguments.dropFirst())
    let tracing = !arguments.contains("--no-tracer")
    arguments.removeAll { $0 == "--no-tracer" }
    let options = try LoadOptions(arguments: arguments, defaultScenario: "ahc")
    try await measure(options, tracing: tracing).report(scenario: options.scenario, perHost: options.connectionsPerHost)
} catch {
    FileHandle.standardError.write(Data("ahc-bench: \(error)\n".utf8))
    exit(1)
}
