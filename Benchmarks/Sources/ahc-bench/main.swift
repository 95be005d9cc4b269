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
// Any status-200 body up to `bodyLimit` passes, an empty one too (the body-size pass asks for
// 0 B to 64 MiB). In scale mode (`BENCH_SCALE=1`) each cycle gets a new client, shut down at the
// cycle's end so its connections close.

/// The most body bytes collected: twice the body-size pass's 64 MiB. `collect(upTo:)` only
/// compares against it (it reserves nothing up front), so a 25-byte body costs what it did at 1 MiB.
let bodyLimit = 128 * 1024 * 1024

/// The deadline of one request, and of its wait for a connection (AsyncHTTPClient bounds a request's
/// wait in its pool by the connect timeout): 60 s, Courier's default total timeout, and what
/// courier-http-bench gives its connections too. Both were 10 s, which requests outlast at
/// 10,000 in flight on one core while the pool opens their connections.
let requestTimeout: TimeAmount = .seconds(60)

/// A new client for one cycle, with `send` doing one request and `shutdown` closing its connections.
func makeClient(_ options: LoadOptions, tracing: Bool) -> LoadClient {
    var configuration = HTTPClient.Configuration()
    if !tracing { configuration.tracing.tracer = nil }
    configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = options.connectionsPerHost
    configuration.decompression = .enabled(limit: .none)
    configuration.timeout.connect = requestTimeout
    let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    let request = HTTPClientRequest(url: options.url)
    return LoadClient(
        send: {
            let response = try await client.execute(request, timeout: requestTimeout)
            let body = try await response.body.collect(upTo: bodyLimit)
            guard response.status == .ok, options.acceptsBody(bytes: body.readableBytes) else {
                throw LoadError.badResponse("\(response.status) with \(body.readableBytes) body bytes")
            }
        },
        shutdown: { try await client.shutdown() })
}

do {
    var arguments = Array(CommandLine.arguments.dropFirst())
    let tracing = !arguments.contains("--no-tracer")
    arguments.removeAll { $0 == "--no-tracer" }
    let options = try LoadOptions(arguments: arguments, defaultScenario: "ahc")
    try await LoadRunner.runWithClients(options, makeClient: { makeClient(options, tracing: tracing) })
        .report(scenario: options.scenario, perHost: options.connectionsPerHost)
} catch {
    FileHandle.standardError.write(Data("ahc-bench: \(error)\n".utf8))
    exit(1)
}
