import AsyncHTTPClient
import Courier
import CourierAsyncHTTPClient
import CourierTestServer
import Foundation
import HTTPTypes
import Testing

/// Runs `body` with a transport that owns its client, and shuts the client down afterwards, also when `body` throws.
func withTransport<Result>(
    _ configuration: AsyncHTTPClientTransport.Configuration = AsyncHTTPClientTransport.Configuration(),
    _ body: (AsyncHTTPClientTransport) async throws -> Result
) async throws -> Result {
    let transport = AsyncHTTPClientTransport(configuration: configuration)
    let result: Result
    do {
        result = try await body(transport)
    } catch {
        try? await transport.shutdown()
        throw error
    }
    try await transport.shutdown()
    return result
}

/// A request for `path` (with any query) on `server`.
func request(
    _ method: HTTPRequest.Method = .get, _ path: String, on server: TestServer,
    headers: HTTPFields = [:], body: RequestBody? = nil, timeout: Duration? = nil
) -> Request {
    Request(
        method: method, url: URL(string: server.baseURL.absoluteString + path)!, headerFields: headers,
        body: body, timeout: timeout)
}

extension Transport {
    /// Sends `request` and reads the whole body.
    func fetch(_ request: Request, context: TransportContext = TransportContext()) async throws -> Response {
        try await send(request, context: context).collectingBody(upTo: .max)
    }
}

/// What `/echo` answered, decoded.
func echo(of response: Response) throws -> EchoedRequest {
    try JSONDecoder().decode(EchoedRequest.self, from: response.body)
}

/// The error `body` throws as a `CourierError`; a test failure when it throws nothing or something else.
func courierError(_ body: () async throws -> Void) async -> CourierError? {
    do {
        try await body()
        Issue.record("expected a CourierError, but nothing was thrown")
        return nil
    } catch let error as CourierError {
        return error
    } catch {
        Issue.record("expected a CourierError, got \(error)")
        return nil
    }
}

/// Whether `condition` becomes true within `limit`, checking every few milliseconds. A minute by
/// default: in a fresh-clone CI run every suite starts at once on two cores, and an event loop
/// closing a timed-out connection was once kept from it for more than 20 s (run 52).
func eventually(within limit: Duration = .seconds(60), _ condition: () -> Bool) async -> Bool {
    let clock = ContinuousClock()
    let end = clock.now + limit
    while clock.now < end {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return condition()
}

/// How long `body` takes.
func duration(of body: () async throws -> Void) async rethrows -> Duration {
    let clock = ContinuousClock()
    let start = clock.now
    try await body()
    return clock.now - start
}

/// A value shared between a test and the callbacks it installs.
final class Recorder<Value: Sendable>: Sendable {
    private let storage: Protected<Value>

    init(_ value: Value) { storage = Protected(value) }

    var value: Value { storage.withLock { $0 } }

    func update<Result: Sendable>(_ change: @Sendable (inout Value) -> Result) -> Result {
        storage.withLock { change(&$0) }
    }
}

extension Route {
    /// `/hang`: never answers within any test's time.
    static let hang = Route("/hang") { _ in
        try? await Task.sleep(for: .seconds(90))
        return .text("too late\n")
    }

    /// `/headers/{n}`: a response with `n` extra header lines `X-Filler-i: value` and the body `ok`,
    /// or `m` zero bytes for `?bytes=m`.
    static let manyHeaders = Route("/headers/{n}") { request in
        let count = Int(request.parameters["n"] ?? "") ?? 0
        let size = request.query.flatMap { $0.hasPrefix("bytes=") ? Int($0.dropFirst(6)) : nil }
        return TestServerResponse(
            headers: (0..<count).map { ("X-Filler-\($0)", "value") },
            body: size.map { Data(count: $0) } ?? Data("ok".utf8))
    }

    /// `/gzip`: a gzip-encoded text (`Fixtures.text`) with `Content-Encoding: gzip`.
    static let gzip = Route("/gzip") { _ in
        TestServerResponse(
            headers: [("Content-Type", "text/plain"), ("Content-Encoding", "gzip"), ("X-After", "1")],
            body: Fixtures.gzippedText)
    }

    /// `/redirect`: `302 Found` to `/echo`.
    static let redirect = Route("/redirect") { _ in
        TestServerResponse(status: 302, headers: [("Location", "/echo")])
    }

    /// `/gzip-bomb`: a megabyte of zeros gzip-compressed to about a kilobyte.
    static let gzipBomb = Route("/gzip-bomb") { _ in
        TestServerResponse(headers: [("Content-Encoding", "gzip")], body: Fixtures.gzippedZeros)
    }
}

/// Compressed bodies made with `gzip -9n`.
enum Fixtures {
    /// `hello, compressed world\n` twenty times.
    static let text = String(repeating: "hello, compressed world\n", count: 20)
    /// `text`, gzip-compressed.
    static let gzippedText = Data(
        base64Encoded: "H4sIAAAAAAACA8tIzcnJ11FIzs8tKEotLk5NUSjPL8pJ4coYFR8W4gCAYhqU4AEAAA==")!
    /// 1,000,000 zero bytes gzip-compressed to 1,003 bytes: a ratio near 1000.
    static let gzippedZeros =
        hex("1f8b0800000000000203edc101010000008220ffaf6e484001")
        + Data(count: 968) + hex("af069ecb791240420f00")

    private static func hex(_ text: String) -> Data {
        var data = Data()
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            data.append(UInt8(text[index..<next], radix: 16)!)
            index = next
        }
        return data
    }
}
