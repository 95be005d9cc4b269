import CourierFoundation
import Foundation
import HTTPTypes
import Testing

@testable import Courier

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The cache in a client over a scripted transport: what only a controlled origin can show.
@Suite struct CacheInterceptorTests {
    final class MovableClock: Sendable {
        private let offset = Protected(0.0)
        /// Where the clock started: it moves only when the test moves it, so an entry's age is the
        /// time the test added, however slowly a busy machine runs the steps.
        private let start = Date()
        func advance(_ seconds: Double) { offset.withLock { $0 += seconds } }
        var now: Date { start.addingTimeInterval(offset.withLock { $0 }) }
    }

    static let url = URL(string: "https://api.example.com/items")!

    @Test func staleWhileRevalidateStartsOneBackgroundRevalidationAtATime() async throws {
        let gate = AsyncStream<Void>.makeStream()
        let answers = Protected(0)
        let mock = MockTransport { _ in
            let number = answers.withLock { count -> Int in
                count += 1
                return count
            }
            if number > 1 { for await _ in gate.stream { break } }  // revalidations wait for the test
            return MockResponse(
                status: .ok, headerFields: [.cacheControl: "max-age=10, stale-while-revalidate=100"],
                body: Data("answer \(number)".utf8))
        }
        let clock = MovableClock()
        let client = Client(transport: mock, interceptors: [CacheInterceptor(storage: .memory(), now: { clock.now })])
        #expect(try await client.send(Request(method: .get, url: Self.url)).text == "answer 1")
        clock.advance(20)
        for _ in 0..<5 {
            let stale = try await client.send(Request(method: .get, url: Self.url))
            #expect(stale.text == "answer 1")
            #expect(stale.headerFields[.cacheStatus]?.hasSuffix("detail=stale-while-revalidate") == true)
        }
        // The revalidation runs on a task of its own: wait until it reaches the origin, then
        // check that more stale answers start no other while it is under way.
        for _ in 0..<400 where answers.withLock({ $0 }) < 2 { try await Task.sleep(for: .milliseconds(5)) }
        for _ in 0..<5 { _ = try await client.send(Request(method: .get, url: Self.url)) }
        #expect(answers.withLock { $0 } == 2, "ten stale answers, one revalidation")
        gate.continuation.yield()
        var fresh = try await client.send(Request(method: .get, url: Self.url))
        for _ in 0..<200 where fresh.text != "answer 2" {
            try await Task.sleep(for: .milliseconds(10))
            fresh = try await client.send(Request(method: .get, url: Self.url))
        }
        #expect(fresh.text == "answer 2")
        #expect(fresh.headerFields[.cacheStatus]?.hasPrefix("Courier; hit; ttl=") == true)
        gate.continuation.finish()
    }

    @Test func aConnectionFailureDuringRevalidationServesStaleOnlyWhereStaleIfErrorAllows() async throws {
        for (directive, servesStale) in [("max-age=10, stale-if-error=60", true), ("max-age=10", false)] {
            let mock = MockTransport()
            mock.enqueue(MockResponse(status: .ok, headerFields: [.cacheControl: directive], body: Data("kept".utf8)))
            var failing = MockResponse()
            failing.failure = .cannotConnect
            mock.enqueue(failing)
            let clock = MovableClock()
            let client = Client(
                transport: mock, interceptors: [CacheInterceptor(storage: .memory(), now: { clock.now })])
            _ = try await client.send(Request(method: .get, url: Self.url))
            clock.advance(30)
            if servesStale {
                let stale = try await client.send(Request(method: .get, url: Self.url))
                #expect(stale.text == "kept")
                #expect(stale.headerFields[.cacheStatus]?.contains("detail=stale-if-error") == true)
            } else {
                await #expect(throws: CourierError.self) { try await client.send(Request(method: .get, url: Self.url)) }
            }
        }
    }

    @Test func explainingShowsTheCacheStatusTheCacheAdded() async throws {
        let mock = MockTransport()
        mock.enqueue(MockResponse(status: .ok, headerFields: [.cacheControl: "max-age=60"], body: Data("x".utf8)))
        let (client, recorder) = Client(transport: mock, interceptors: [CacheInterceptor()]).explaining()
        _ = try await client.send(Request(method: .get, url: Self.url))
        let miss = try #require(recorder.last)
        #expect(miss.steps.first?.responseChanges.contains { $0.field == "Cache-Status" } == true)
        _ = try await client.send(Request(method: .get, url: Self.url))
        let hit = try #require(recorder.last)
        #expect(hit.steps.map(\.stage) == ["CacheInterceptor"], "a hit never reaches the transport")
        #expect(hit.text.contains("Cache-Status") || hit.text.contains("CacheInterceptor"))
    }

    @Test func theSeedsCachePolicyIsHonouredAndNotReportedAsIgnored() async throws {
        let mock = MockTransport()
        mock.enqueue(MockResponse(status: .ok, headerFields: [.cacheControl: "max-age=60"], body: Data("1".utf8)))
        mock.enqueue(MockResponse(status: .ok, headerFields: [.cacheControl: "max-age=60"], body: Data("2".utf8)))
        let (client, recorder) = Client(transport: mock, interceptors: [CacheInterceptor()]).explaining()
        _ = try await client.send(Request(method: .get, url: Self.url))
        let reload = try Self.url.buildRequest { CachePolicy(.reloadIgnoringLocalCacheData) }
        let reloaded = try await client.send(reload)
        #expect(reloaded.text == "2")
        #expect(recorder.last?.steps.contains { $0.ignoredHints?.isEmpty == false } == false)
        let offline = try Self.url.buildRequest { CachePolicy(.returnCacheDataDontLoad) }
        #expect(try await client.send(offline).text == "2")
        var urlRequest = URLRequest(url: Self.url.appendingPathComponent("never"))
        urlRequest.cachePolicy = .returnCacheDataDontLoad
        #expect(try await client.send(try Request(urlRequest)).status == .gatewayTimeout)
        #expect(mock.requests.count == 2)
    }
}
