import Courier
import CourierTestServer
import Foundation
import Glibc
import HTTPTypes
import Testing

@testable import CourierCurl

/// Routes the default test server lacks, for the transport's own tests.
enum CurlTestRoutes {
    /// `/never`: answers only after 90 s, past any test's time limit, so a request to it ends by timeout or cancellation.
    static let never = Route("/never") { _ in
        try? await Task.sleep(for: .seconds(90))
        return .text("too late")
    }

    /// `/headers/{n}`: a response with `n` extra header lines.
    static let headers = Route("/headers/{n}") { request in
        let count = Int(request.parameters["n"] ?? "") ?? 0
        return TestServerResponse(headers: (0..<count).map { ("X-Header-\($0)", "value \($0)") }, body: Data("ok".utf8))
    }

    /// `/gzip`: 2400 bytes of text, gzip-compressed to 64.
    static let gzip = Route("/gzip") { _ in
        TestServerResponse(headers: [("Content-Type", "text/plain"), ("Content-Encoding", "gzip")], body: gzippedText)
    }

    /// `/bomb`: one million zero bytes gzip-compressed to 1003, a ratio near 1000.
    static let bomb = Route("/bomb") { _ in
        TestServerResponse(headers: [("Content-Encoding", "gzip")], body: gzippedZeros)
    }

    static let all: [Route] = [never, headers, gzip, bomb] + Route.defaults

    /// What `/gzip` decodes to.
    static let plainText = String(repeating: "hello, compressed world\n", count: 100)

    static let gzippedText = Data(
        base64Encoded: "H4sIAAAAAAACA8tIzcnJ11FIzs8tKEotLk5NUSjPL8pJ4coYFR8VHxUfFR8VHxUfFR8VHxUnSxwA6IsAWWAJAAA=")!

    static let gzippedZeros = Data(
        [31, 139, 8, 0, 0, 0, 0, 0, 2, 3, 237, 193, 1, 1, 0, 0, 0, 130, 32, 255, 175, 110, 72, 64, 1]
            + [UInt8](repeating: 0, count: 968) + [175, 6, 158, 203, 121, 18, 64, 66, 15, 0])
}

/// Runs `body` with a test server that has `routes` (by default the extra routes) and a
/// transport, shutting both down after.
func withCurl<Result>(
    _ configuration: CurlTransport.Configuration = CurlTransport.Configuration(),
    routes: [Route] = CurlTestRoutes.all,
    _ body: (TestServer, CurlTransport) async throws -> Result
) async throws -> Result {
    let transport = CurlTransport(configuration: configuration)
    do {
        let result = try await withTestServer(routes: routes) { server in
            try await body(server, transport)
        }
        await transport.shutdown()
        return result
    } catch {
        await transport.shutdown()
        throw error
    }
}

extension TestServer {
    /// The URL of `pathAndQuery` (already percent-encoded) on this server.
    func url(_ pathAndQuery: String) -> URL { URL(string: baseURL.absoluteString + pathAndQuery)! }
}

extension CurlTransport {
    /// Sends `request` and reads the whole body.
    func fetch(_ request: Request, context: TransportContext = TransportContext()) async throws -> Response {
        try await send(request, context: context).collectingBody(upTo: .max)
    }
}

extension Response {
    /// The `/echo` route's JSON, decoded.
    func echoed() throws -> EchoedRequest { try JSONDecoder().decode(EchoedRequest.self, from: body) }
}

/// Runs `operation` and returns the error it throws as a `CourierError`, or `nil` when it succeeds;
/// an error the transport did not map is recorded as a test failure.
func courierError(
    _ operation: () async throws -> Void, sourceLocation: SourceLocation = #_sourceLocation
) async -> CourierError? {
    do {
        try await operation()
        return nil
    } catch let error as CourierError {
        return error
    } catch {
        Issue.record("not a CourierError: \(type(of: error)): \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

/// The last value a progress callback reported, and the largest.
final class ProgressLog: Sendable {
    private let values = Protected<[(Int64, Int64?)]>([])

    func record(_ value: Int64, _ total: Int64?) { values.withLock { $0.append((value, total)) } }

    var last: (Int64, Int64?)? { values.withLock { $0.last } }
    var count: Int { values.withLock { $0.count } }
    var latest: Int64 { values.withLock { $0.last?.0 ?? 0 } }
}

/// A loopback port with nothing listening: bound (so no one else takes it) but not listening.
func unusedPort() throws -> (socket: Int32, number: Int) {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
        }
    }
    guard bound else { throw POSIXError(.EADDRINUSE) }
    return (fd, Int(UInt16(bigEndian: address.sin_port)))
}
