import BenchLoad
import Courier
import Foundation
import HTTPTypes
import PipelineFixtures
#if canImport(CourierCurl)
import CourierCurl
#endif
#if canImport(CourierAsyncHTTPClient)
import CourierAsyncHTTPClient
#endif
#if canImport(CourierURLSession)
import CourierURLSession
#endif

// Courier over a real transport against the loopback server: `Client.send` through
// `--interceptors N` no-op stages, collecting each body. The transport allows `--per-host`
// connections to the host (default: as many as are in flight, like every other row, up to the
// 10,000 of the scale pass) and asks for compressed bodies (decompression on, as every row);
// `--http2 1 --ca-file PEM` speaks HTTP/2 over TLS with every request multiplexed on one
// connection. Any status-200 body up to `bodyLimit` passes, an empty one too (the body-size pass
// asks for 0 B to 64 MiB). In scale mode (`BENCH_SCALE=1`) each cycle gets a new transport and
// client, shut down at the cycle's end so its connections close. The transport modules join the
// build when they exist in the Courier checkout (see Package.swift); until then this exits with
// status 3 and says so, and run.sh reports the scenario as skipped, never as a number.

/// The exit status that tells run.sh a scenario is not available in this checkout.
let skipped: Int32 = 3

/// The largest body a response may have here: twice the body-size pass's 64 MiB, which Courier's
/// default `Limits.maxBodyBytes` (64 MiB) only just admits. Only the bound changes; a 25-byte
/// body is read exactly as before.
let bodyLimit: Int64 = 128 * 1024 * 1024

/// How long opening a connection may take, its wait for a slot in AsyncHTTPClient's pool included:
/// the total timeout's 60 s rather than the default 10 s, which requests outlast at 10,000 in
/// flight on one core while their connections open (ahc-bench gives raw AHC the same).
let connectTimeout: Duration = .seconds(60)

func makeTransport(_ name: String, options: LoadOptions) -> (any Transport)? {
    switch name {
    case "curl":
        #if canImport(CourierCurl)
        var configuration = CurlTransport.Configuration()
        configuration.maxConnectionsPerHost = options.connectionsPerHost
        configuration.maxIdleConnections = max(configuration.maxIdleConnections, options.connectionsPerHost)
        configuration.decompression = true
        if options.http2 {
            configuration.httpVersion = .http2
            configuration.caInfo = options.caFile
        }
        return CurlTransport(configuration: configuration)
        #else
        return nil
        #endif
    case "ahc":
        #if canImport(CourierAsyncHTTPClient)
        var configuration = AsyncHTTPClientTransport.Configuration()
        configuration.maxConnectionsPerHost = options.connectionsPerHost
        configuration.decompressesResponses = true
        configuration.connectTimeout = connectTimeout
        if options.http2 { configuration.caInfo = options.caFile }  // HTTP/2 by ALPN, AsyncHTTPClient's default
        return AsyncHTTPClientTransport(configuration: configuration)
        #else
        return nil
        #endif
    case "urlsession":
        #if canImport(CourierURLSession)
        // URLSession always asks for compressed bodies and decodes them, as every row does.
        var settings = URLSessionTransport.Settings()
        settings.maxConnectionsPerHost = options.connectionsPerHost
        guard !options.http2 else { return nil }
        return try? URLSessionTransport(settings: settings)
        #else
        return nil
        #endif
    default:
        return nil
    }
}

/// Ends the transport's threads and connections, whichever transport it is.
func shutDown(_ transport: any Transport) async {
    #if canImport(CourierCurl)
    if let curl = transport as? CurlTransport { await curl.shutdown() }
    #endif
    #if canImport(CourierAsyncHTTPClient)
    if let ahc = transport as? AsyncHTTPClientTransport { try? await ahc.shutdown() }
    #endif
    #if canImport(CourierURLSession)
    if let urlSession = transport as? URLSessionTransport { urlSession.shutdown() }
    #endif
}

/// Removes `flag` and its value from `arguments` and returns the value.
func take(_ flag: String, from arguments: inout [String]) -> String? {
    guard let index = arguments.firstIndex(of: flag), index + 1 < arguments.count else { return nil }
    defer { arguments.removeSubrange(index...index + 1) }
    return arguments[index + 1]
}

var arguments = Array(CommandLine.arguments.dropFirst())
let transportName = take("--transport", from: &arguments) ?? "curl"
let interceptorCount = take("--interceptors", from: &arguments).flatMap(Int.init) ?? 0

guard ["curl", "ahc", "urlsession"].contains(transportName) else {
    FileHandle.standardError.write(
        Data("courier-http-bench: --transport is curl, ahc or urlsession, not \(transportName)\n".utf8))
    exit(2)
}
let options: LoadOptions
do {
    options = try LoadOptions(arguments: arguments, defaultScenario: "courier-\(transportName)")
} catch {
    FileHandle.standardError.write(Data("courier-http-bench: \(error)\n".utf8))
    exit(2)
}
// A missing transport module is a skip, never a failed row; the transport made to find out is
// the first cycle's.
guard let firstTransport = makeTransport(transportName, options: options) else {
    let module = ["curl": "CourierCurl", "ahc": "CourierAsyncHTTPClient"][transportName] ?? "CourierURLSession"
    print("SKIP courier-http-bench --transport \(transportName): \(module) is not in this Courier checkout yet")
    exit(skipped)
}

/// Thrown when a later cycle's transport cannot be made although the first one could: a failure, not a skip.
struct TransportUnavailable: Error, CustomStringConvertible {
    var name: String
    var description: String { "the \(name) transport could not be made" }
}

do {
    var unused: (any Transport)? = firstTransport
    guard let url = URL(string: options.url) else {
        await shutDown(firstTransport)
        throw LoadError.usage("--url does not parse")
    }
    let (load, name, stages) = (options, transportName, interceptorCount)
    let request = Request(url: url)
    var configuration = Client.Configuration()
    configuration.limits.maxBodyBytes = bodyLimit
    configuration.connectTimeout = connectTimeout
    // One client without scale mode; in scale mode one per cycle, each shut down at its end.
    let result = try await LoadRunner.runWithClients(load, makeClient: {
        guard let transport = unused.take() ?? makeTransport(name, options: load) else {
            throw TransportUnavailable(name: name)
        }
        let client = Client(transport: transport, interceptors: .noops(stages), configuration: configuration)
        return LoadClient(
            send: {
                let response = try await client.send(request)
                guard response.status == .ok, load.acceptsBody(bytes: response.body.count) else {
                    throw LoadError.badResponse("\(response.status) with \(response.body.count) body bytes")
                }
            },
            shutdown: { await shutDown(transport) })
    })
    result.report(scenario: load.scenario, perHost: load.connectionsPerHost, interceptors: stages)
} catch {
    FileHandle.standardError.write(Data("courier-http-bench: \(error)\n".utf8))
    exit(1)
}
