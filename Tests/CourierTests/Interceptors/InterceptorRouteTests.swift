import CourierTestServer
import Foundation
import Testing

/// The routes added for interceptor tests, driven by the real curl binary.
@Suite("TestServer routes for interceptors")
struct InterceptorRouteTests {
    private func curl(_ arguments: String) async throws -> String {
        String(decoding: try await Shell.run("curl -s --max-time 20 \(arguments)").standardOutput, as: UTF8.self)
    }

    @Test func flakyFailsTheFirstRequestsPerKeyThenEchoes() async throws {
        try await withTestServer { server async throws in
            let base = server.baseURL.absoluteString
            let format = "-o /dev/null -w '%{http_code} %header{x-attempt} %header{retry-after}'"
            let first = try await curl("\(format) '\(base)/flaky/a/2?status=429&retry_after=3'")
            let second = try await curl("\(format) '\(base)/flaky/a/2?status=429&retry_after=3'")
            let other = try await curl("\(format) '\(base)/flaky/b/2'")
            let third = try await curl("\(format) '\(base)/flaky/a/2?status=429&retry_after=3'")
            #expect([first, second, other, third] == ["429 1 3", "429 2 3", "503 1 ", "200 3 "])
        }
    }

    @Test func inFlightCountsConcurrentRequests() async throws {
        try await withTestServer { server async throws in
            let url = "'\(server.baseURL.absoluteString)/inflight/2000'"
            let output = try await curl("--parallel --parallel-immediate \(url) \(url) \(url)")
            let counts = try output.split(separator: "}").map {
                try JSONDecoder().decode(InFlightCount.self, from: Data(($0 + "}").utf8))
            }
            #expect(counts.count == 3)
            #expect(counts.map(\.maxInFlight).max() == 3)
        }
    }
}
