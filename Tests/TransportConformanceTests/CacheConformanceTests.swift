import Courier
import CourierFoundation
import CourierTestServer
import Foundation
import HTTPTypes
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The HTTP cache against a real origin, on every transport, with each store: a table of cases,
/// each a few requests on a clock the test moves, checking what the caller got, the cache's
/// `Cache-Status`, and how often the origin was asked.
@Suite("Transport conformance: HTTP cache", .timeLimit(.minutes(2)))
struct CacheConformanceTests {
    enum Store: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case memory
        case directory
        var testDescription: String { rawValue }
    }

    /// One request of a case and what must come of it.
    struct Step: Sendable {
        /// Seconds the cache's clock moves before the request.
        var after: Double = 0
        var method: HTTPRequest.Method = .get
        /// Another path (with query) than the case's, for invalidation.
        var path: String?
        var headers: [(String, String)] = []
        var mode: CacheMode = .standard
        var status = 200
        /// The origin's answer number the caller gets (`key #n`), when there is a body.
        var answer: Int?
        /// The cache's `Cache-Status` entry without its `ttl`.
        var cacheStatus: String
        /// How many requests reached the origin after this step.
        var originHits: Int
        /// Header fields the served response must carry.
        var fields: [(String, String)] = []
        /// Waits for the origin count to reach `originHits` (a background revalidation).
        var eventually = false
    }

    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let query: String
        let steps: [Step]
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "max-age fresh is a hit", query: "cc=max-age%3D60",
            steps: [
                Step(answer: 1, cacheStatus: "Courier; fwd=uri-miss; fwd-status=200; stored", originHits: 1),
                Step(after: 30, answer: 1, cacheStatus: "Courier; hit", originHits: 1, fields: [("Age", "30")]),
            ]),
        Case(
            name: "stale with an ETag is revalidated and a 304 serves the stored body",
            query: "cc=max-age%3D10&etag=v1",
            steps: [
                Step(answer: 1, cacheStatus: "Courier; fwd=uri-miss; fwd-status=200; stored", originHits: 1),
                Step(
                    after: 20, answer: 1, cacheStatus: "Courier; fwd=stale; fwd-status=304; stored", originHits: 2,
                    fields: [("X-Seen-If-None-Match", "\"v1\""), ("X-Origin-Hit", "2")]),
                Step(answer: 1, cacheStatus: "Courier; hit", originHits: 2),
            ]),
        Case(
            name: "Last-Modified is sent back as If-Modified-Since", query: "cc=max-age%3D0&last_modified=3600",
            steps: [
                Step(answer: 1, cacheStatus: "Courier; fwd=uri-miss; fwd-status=200; stored", originHits: 1),
                Step(after: 1, answer: 1, cacheStatus: "Courier; fwd=stale; fwd-status=304; stored", originHits: 2),
            ]),
        Case(
            name: "heuristic freshness is a tenth of the time since Last-Modified", query: "last_modified=1000",
            steps: [
                Step(answer: 1, cacheStatus: "Courier; fwd=uri-miss; fwd-status=200; stored", originHits: 1),
                Step(after: 50, answer: 1, cacheStatus: "Courier; hit", originHits: 1),
                Step(after: 60, answer: 1, cacheStatus: "Courier; fwd=stale; fwd-status=304; stored", originHits: 2),
            ]),
        Case(
            name: "Expires counts from Date, and a stale entry without validators is fetched again",
            query: "expires=60",
            steps: [
                Step(answer: 1, cacheStatus: "Courier; fwd=uri-miss; fwd-status=200; stored", originHits: 1),
                Step(after: 30, answer: 1, cacheStatus: "Courier; hit", originHits: 1),
                Step(after: 40, answer: 2, cacheStatus: "Courier; fwd=stale; fwd-status=200; stored", originHits: 2),
            ]),
        Case(
            name: "Age from upstream counts", query: "cc=max-age%3D60&age=50",
            steps: [
                Step(answer: 1, cacheStatus: "Courier; fwd=uri-miss; fwd-status=200; stored", originHits: 1),
                Step(after: 15, answer: 2, cacheStatus: "Courier; fwd=stale; fwd-status=200; stored", originHits: 2),
            ]),
        Case(
            name: "no-store in the response is never stored", query: "cc=no-store,max-age%3D60",
            steps: [
                Step(answer: 1, cacheStatus: "Courier; fwd=uri-miss; fwd-status=200", originHits: 1),
                Step(answer: 2, cacheStatus: "Courier; fwd=uri-miss; fwd-status=200", originHits: 2),
            ]),
        Case(
            name: "no-store in the request is never stored", query: "cc=max-age%3D60",
            steps: [
                Step(
                    headers: [("Cache-Control", "no-store")], answer: 1,
                    cacheStatus: "Courier; fwd=uri-miss; fwd-status=200", originHits: 1),
                Step(answer: 2, cacheStatus: "Courier; fwd=uri-miss; fwd-status=200; stored", originHits: 2),
            ]),
        Case(
            name: "no-cache in the response validates every use", query: "cc=no-cache,max-age%3D60&etag=a",
            steps: [
                Step(answer: 1, cacheStatus: "Courier; fwd=uri-miss; fwd-status=200; stored", originHits: 1),
                Step(answer: 1, cacheStatus: "Courier; fwd=request; fwd-status=304; stored", originHits: 2),
            ]),
        Case(
            name: "no-cache in the request validates a fresh entry", query: "cc=max-age%3D60&etag=a",
            steps: [
                Step(answer: 1, cacheStatus: "Courier; fwd=uri-miss; fwd-status=200; stored", originHits: 1),
                Step(
                    headers: [("Cache-Control", "no-cache")], answer: 1,
                    cacheStatus: "Courier; fwd=request; fwd-status=304; stored", originHits: 2),
            ]),
        Case(
            name: "max-stale accepts a stale entry", query: "cc=max-age%3D10",
            steps: [
                Step(answer: 1, cacheStatus: "Courier; fwd=uri-miss; fwd-status=200; stored", originHits: 1),
                Step(
                    after: 20, headers: [("Cache-Control", "max-stale=100")], answer: 1, cacheStatus: "Courier; hit",
                    originHits: 1),
                Step(
                    headers: [("Cache-Control", "max-stale=5")], answer: 2,
                    cacheStatus: "Courier; fwd=stale; fwd-status=200; stored", originHits: 2),
            ]),
        Case(
            name: "must-revalidate outweighs max-stale", query: "cc=max-age%3D10,must-revalidate&etag=m",
            steps: [
                Step(answer: 1, cacheStatus: "Courier; fwd=uri-miss; fwd-status=200; stored", originHits: 1),
                Step(
                    after: 20, headers: [("Cache-Control", "max-stale")], answer: 1,
                    cacheStatus: "Courier; fwd=stale; fwd-status=304; stored", originHits: 2),
            ]),
        Case(
            name: "request max-age and min-fresh refuse an entry that is fresh but not enough",
            query: "cc=max-age%3D100",
            steps: [
                Step(answer: 1, cacheStatus: "Courier; fwd=uri-miss; fwd-status=200; stored", originHits: 1),
                Step(
                    after: 30, headers: [("Cache-Control", "max-age=10")], answer: 2,
                    cacheStatus: "Courier; fwd=request; fwd-status=200; stored", originHits: 2),
                Step(
                    after: 30, headers: [("Cache-Control", "min-fresh=80")], answer: 3,
                    cacheStatus: "Courier; fwd=request; fwd-status=200; stored", originHits: 3),
            ]),
        Case(
            name: "only-if-cached is a 504 on a miss and a hit after", query: "cc=max-age%3D60",
            steps: [
                Step(
                    headers: [("Cache-Control", "only-if-cached")], status: 504,
                    cacheStatus: "Courier; detail=only-if-cached", originHits: 0),
                Step(answer: 1, cacheStatus: "Courier; fwd=uri-miss; fwd-status=200; stored", originHits: 1),
                Step(
                    headers: [("Cache-Control", "only-if-cached")], answer: 1, cacheStatus: "Courier; hit",
                    originHits: 1),
            ]),
        Case(
            name: "Vary keeps a response per value of the varying field",
            query: "cc=max-age%3D60&vary=Accept-Language",
            steps: [
                Step(
                    headers: [("Accept-Language", "en")], answer: 1,
                    cacheStatus: "Courier; fwd=uri-miss; fwd-status=200; stored", originHits: 1),
                Step(
                    headers: [("Accept-Language", "fr")], answer: 2,
                    cacheStatus: "Courier; fwd=vary-miss; fwd-status=200; stored", originHits: 2),
                Step(headers: [("Accept-Language", "en")], answer: 1, cacheStatus: "Courier; hit", originHits: 2),
                Step(headers: [("Accept-Language", "fr")], answer: 2, cacheStatus: "Courier; hit", originHits: 2),
            ]),
        Case(
            name: "Vary: * is never stored", query: "cc=max-age%3D60&vary=*",
            steps: [
                Step(answer: 1, cacheStatus: "Courier; fwd=uri-miss; fwd-status=200", originHits: 1),
                Step(answer: 2, cacheStatus: "Courier; fwd=uri-miss; fwd-status=200", originHits: 2),
            ]),
        Case(
            name: "private is stored by a private cache, s-maxage is not freshness", query: "cc=private,s-maxage%3D600",
            steps: [
                Step(answer: 1, cacheStatus: "Courier; fwd=uri-miss; fwd-status=200; stored", originHits: 1),
                Step(after: 1, answer: 2, cacheStatus: "Courier; fwd=stale; fwd-status=200; stored", originHits: 2),
            ]),
        Case(
            name: "a heuristically cacheable 404 is stored, a 202 without freshness is not",
            query: "status=404&last_modified=1000",
            steps: [
                Step(
                    status: 404, answer: 1, cacheStatus: "Courier; fwd=uri-miss; fwd-status=404; stored", originHits: 1),
                Step(status: 404, answer: 1, cacheStatus: "Courier; hit", originHits: 1),
            ]),
        Case(
            name: "a 202 without explicit freshness is not stored", query: "status=202&last_modified=1000",
            steps: [
                Step(status: 202, answer: 1, cacheStatus: "Courier; fwd=uri-miss; fwd-status=202", originHits: 1),
                Step(status: 202, answer: 2, cacheStatus: "Courier; fwd=uri-miss; fwd-status=202", originHits: 2),
            ]),
        Case(
            name: "a successful POST invalidates its URI and is never stored", query: "cc=max-age%3D60",
            steps: [
                Step(answer: 1, cacheStatus: "Courier; fwd=uri-miss; fwd-status=200; stored", originHits: 1),
                Step(method: .post, answer: 2, cacheStatus: "Courier; fwd=method; fwd-status=200", originHits: 2),
                Step(answer: 3, cacheStatus: "Courier; fwd=uri-miss; fwd-status=200; stored", originHits: 3),
            ]),
        Case(
            name: "a failed DELETE invalidates nothing", query: "cc=max-age%3D60",
            steps: [
                Step(answer: 1, cacheStatus: "Courier; fwd=uri-miss; fwd-status=200; stored", originHits: 1),
                Step(
                    method: .delete, path: "?cc=max-age%3D60&status=500", status: 500, answer: 2,
                    cacheStatus: "Courier; fwd=method; fwd-status=500", originHits: 2),
                Step(answer: 1, cacheStatus: "Courier; hit", originHits: 2),
            ]),
        Case(
            name: "stale-if-error serves the stale entry when the origin fails",
            query: "cc=max-age%3D10,stale-if-error%3D100&etag=e&fail_from=2",
            steps: [
                Step(answer: 1, cacheStatus: "Courier; fwd=uri-miss; fwd-status=200; stored", originHits: 1),
                Step(
                    after: 20, answer: 1, cacheStatus: "Courier; fwd=stale; fwd-status=503; detail=stale-if-error",
                    originHits: 2),
                Step(after: 200, status: 503, cacheStatus: "Courier; fwd=stale; fwd-status=503", originHits: 3),
            ]),
        Case(
            name: "without stale-if-error the origin's 503 is passed on", query: "cc=max-age%3D10&etag=e&fail_from=2",
            steps: [
                Step(answer: 1, cacheStatus: "Courier; fwd=uri-miss; fwd-status=200; stored", originHits: 1),
                Step(after: 20, status: 503, cacheStatus: "Courier; fwd=stale; fwd-status=503", originHits: 2),
            ]),
        Case(
            name: "stale-while-revalidate serves stale at once and revalidates in the background once",
            query: "cc=max-age%3D10,stale-while-revalidate%3D100",
            steps: [
                Step(answer: 1, cacheStatus: "Courier; fwd=uri-miss; fwd-status=200; stored", originHits: 1),
                Step(
                    after: 20, answer: 1, cacheStatus: "Courier; hit; detail=stale-while-revalidate", originHits: 2,
                    eventually: true),
                Step(answer: 2, cacheStatus: "Courier; hit", originHits: 2),
            ]),
        Case(
            name: "CachePolicy reload fetches and stores, revalidate validates", query: "cc=max-age%3D60&etag=r",
            steps: [
                Step(answer: 1, cacheStatus: "Courier; fwd=uri-miss; fwd-status=200; stored", originHits: 1),
                Step(
                    mode: .reload, answer: 2, cacheStatus: "Courier; fwd=request; fwd-status=200; stored", originHits: 2
                ),
                Step(
                    mode: .revalidate, answer: 2, cacheStatus: "Courier; fwd=request; fwd-status=304; stored",
                    originHits: 3),
            ]),
        Case(
            name: "CachePolicy returnCacheData modes take a stale entry; DontLoad is a 504 on a miss",
            query: "cc=max-age%3D10",
            steps: [
                Step(mode: .onlyCached, status: 504, cacheStatus: "Courier; detail=only-if-cached", originHits: 0),
                Step(answer: 1, cacheStatus: "Courier; fwd=uri-miss; fwd-status=200; stored", originHits: 1),
                Step(after: 100, mode: .preferCached, answer: 1, cacheStatus: "Courier; hit", originHits: 1),
                Step(mode: .onlyCached, answer: 1, cacheStatus: "Courier; hit", originHits: 1),
            ]),
    ]

    /// A clock that stands still but for what the test adds.
    final class MovableClock: Sendable {
        private let offset = Protected(0.0)
        /// Where the clock started: it moves only when the test moves it, so an entry's age is the
        /// time the test added, however slowly a busy machine runs the steps.
        private let start = Date()
        func advance(_ seconds: Double) { offset.withLock { $0 += seconds } }
        var now: Date { start.addingTimeInterval(offset.withLock { $0 }) }
    }

    @Test(arguments: TransportUnderTest.all, Store.allCases)
    func everyRuleHoldsAgainstARealOrigin(transport: TransportUnderTest, store: Store) async throws {
        try await transport.withClient { plain, server in
            for test in Self.cases {
                let directory = FileManager.default.temporaryDirectory
                    .appendingPathComponent("courier-cache-\(UUID().uuidString)")
                defer { try? FileManager.default.removeItem(at: directory) }
                let clock = MovableClock()
                let cache = CacheInterceptor(
                    storage: store == .memory ? .memory() : .directory(directory), now: { clock.now })
                let client = Client(transport: plain.transport, interceptors: [cache])
                let key = "case-\(Self.cases.firstIndex { $0.name == test.name }!)"
                for (index, step) in test.steps.enumerated() {
                    let label = Comment(rawValue: "\(test.name), step \(index + 1)")
                    clock.advance(step.after)
                    // The origin's Date is the wall clock's, which the test does not move: a case
                    // sends none unless it is about Date, so the moved clock alone ages entries.
                    let query = test.query.contains("expires") ? test.query : test.query + "&date=none"
                    let path = "/cache/\(key)" + (step.path ?? "?" + query)
                    let request = try server.request(path) {
                        Method.custom(step.method.rawValue)
                        for (name, value) in step.headers { Header.custom(name).setValue(value) }
                    }
                    var sent = request
                    sent.options[CacheModeOption.self] = step.mode
                    let response = try await client.send(sent)
                    #expect(response.status.code == step.status, label)
                    if let answer = step.answer { #expect(response.text == "\(key) #\(answer)\n", label) }
                    let ours = response.headerFields[values: .init("Cache-Status")!].last ?? ""
                    #expect(Self.withoutTTL(ours) == step.cacheStatus, label)
                    for (name, value) in step.fields {
                        #expect(response.headerFields[HTTPField.Name(name)!] == value, label)
                    }
                    var hits = try await Self.originHits(key, plain: plain, server: server)
                    var waited = 0
                    while step.eventually, hits < step.originHits, waited < 100 {
                        try await Task.sleep(for: .milliseconds(50))
                        waited += 1
                        hits = try await Self.originHits(key, plain: plain, server: server)
                    }
                    if step.eventually {
                        // The background answer is stored once read: wait until it answers alone.
                        let probe = try server.request(path) { CacheControl([.onlyIfCached]) }
                        var stored = try await client.send(probe)
                        while stored.status != .ok, waited < 200 {
                            try await Task.sleep(for: .milliseconds(50))
                            waited += 1
                            stored = try await client.send(probe)
                        }
                    }
                    #expect(hits == step.originHits, label)
                }
            }
        }
    }

    @Test(arguments: TransportUnderTest.all)
    func aSuccessfulPostInvalidatesASameOriginLocationButNotAnotherOrigin(transport: TransportUnderTest) async throws {
        try await transport.withClient { plain, server in
            let client = Client(transport: plain.transport, interceptors: [CacheInterceptor()])
            let target = "/cache/target?cc=max-age%3D60"
            _ = try await client.send(try server.request(target))
            #expect(Self.withoutTTL(try await client.send(try server.request(target)).cacheStatus) == "Courier; hit")
            let location = "/cache/target%3Fcc%3Dmax-age%253D60"
            let elsewhere = "http://other.example" + location
            _ = try await client.send(try server.request("/cache/poster?location=\(elsewhere)") { Method.POST })
            #expect(Self.withoutTTL(try await client.send(try server.request(target)).cacheStatus) == "Courier; hit")
            _ = try await client.send(try server.request("/cache/poster?content_location=\(location)") { Method.PUT })
            #expect(
                Self.withoutTTL(try await client.send(try server.request(target)).cacheStatus)
                    == "Courier; fwd=uri-miss; fwd-status=200; stored")
        }
    }

    @Test(arguments: TransportUnderTest.all)
    func aStreamedBodyIsStoredAsTheCallerReadsItAndNotWhenAbandoned(transport: TransportUnderTest) async throws {
        try await transport.withClient { plain, server in
            let cache = CacheInterceptor(storage: .memory(maxBytes: 4 << 20))
            let client = Client(transport: plain.transport, interceptors: [cache])
            // The origin's answers have no freshness; max-stale lets a stored one answer.
            let path = "/stream-bytes/300000?chunk_size=4096"
            let abandoned = try await client.stream(try server.request(path))
            #expect(abandoned.isStreaming)
            abandoned.bodyStream?.discard()
            let again = try await client.send(try server.request(path) { CacheControl([.maxStale(nil)]) })
            #expect(again.cacheStatus.contains("fwd=uri-miss"), "an abandoned body is not stored")
            #expect(again.body.count == 300_000)
            let hit = try await client.send(try server.request(path) { CacheControl([.maxStale(nil)]) })
            #expect(Self.withoutTTL(hit.cacheStatus) == "Courier; hit")
            #expect(hit.body == again.body)
            #expect(cache.storage.storedBytes > 300_000)
        }
    }

    @Test(arguments: TransportUnderTest.all)
    func aResponseOverThePerEntryLimitIsServedWhole(transport: TransportUnderTest) async throws {
        try await transport.withClient { plain, server in
            let cache = CacheInterceptor(storage: .memory(maxBytes: 1 << 20, maxEntryBytes: 10_000))
            let client = Client(transport: plain.transport, interceptors: [cache])
            for known in [true, false] {
                let path = known ? "/bytes/50000" : "/stream-bytes/50000?chunk_size=1000"
                let first = try await client.send(try server.request(path) { CacheControl([.maxStale(nil)]) })
                #expect(first.body.count == 50_000)
                let second = try await client.send(try server.request(path) { CacheControl([.maxStale(nil)]) })
                #expect(second.body.count == 50_000)
                #expect(second.cacheStatus.contains("fwd=uri-miss"), "\(path) was not stored")
            }
            #expect(cache.storage.storedBytes == 0)
        }
    }

    static func withoutTTL(_ status: String) -> String {
        status.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.hasPrefix("ttl=") }
            .joined(separator: "; ")
    }

    static func originHits(_ key: String, plain: Client, server: TestServer) async throws -> Int {
        Int(try await plain.send(try server.request("/cache-hits/\(key)")).text) ?? -1
    }
}

extension Response {
    /// The last `Cache-Status` entry: the one the nearest cache wrote.
    fileprivate var cacheStatus: String { headerFields[values: HTTPField.Name("Cache-Status")!].last ?? "" }
}
