import Foundation
import HTTPTypes
import Testing

@testable import Courier

/// The cache's decisions without I/O: directives, freshness and the lookup table.
@Suite struct CacheLookupTests {
    static let received = Date(timeIntervalSince1970: 1_800_000_000)

    static func entry(
        _ lines: [(String, String)], status: Int = 200, varying: [String: String?] = [:], at time: Date = received
    ) -> StoredResponse {
        var fields = HTTPFields()
        for (name, value) in lines { fields.append(HTTPField(name: HTTPField.Name(name)!, value: value)) }
        let request = Request(method: .get, url: URL(string: "https://example.com/a")!)
        return StoredResponse(
            key: "GET https://example.com/a",
            response: Response(status: HTTPResponse.Status(code: status), headerFields: fields, request: request),
            body: Data("stored".utf8), varying: varying, requestTime: time, responseTime: time)
    }

    static func fields(_ lines: [(String, String)]) -> HTTPFields {
        var fields = HTTPFields()
        for (name, value) in lines { fields.append(HTTPField(name: HTTPField.Name(name)!, value: value)) }
        return fields
    }

    static func after(_ seconds: Double) -> Date { received.addingTimeInterval(seconds) }

    // MARK: Directives

    @Test func directivesAreReadFromEveryLineWithQuotedValuesAndFirstValueKept() {
        let directives = CacheDirectives(
            Self.fields([
                ("Cache-Control", #"Max-Age=60, private="set-cookie, x", no-cache"#),
                ("Cache-Control", "max-age=5, max-stale, stale-if-error=30, s-maxage=9"),
            ]))
        #expect(directives.maxAge == 60)
        #expect(directives.isPrivate && directives.noCache)
        #expect(directives.maxStale == Int.max)
        #expect(directives.staleIfError == 30)
    }

    @Test func anUnreadableDeltaCountsAsZero() {
        #expect(CacheDirectives(Self.fields([("Cache-Control", "max-age=soon")])).maxAge == 0)
        #expect(CacheDirectives(Self.fields([("Cache-Control", "max-age=-5")])).maxAge == 0)
    }

    // MARK: Freshness (RFC 9111 §4.2)

    @Test func maxAgeWinsOverExpiresAndSMaxageIsIgnored() {
        let fields = Self.fields([
            ("Cache-Control", "s-maxage=500, max-age=60"), ("Expires", "Thu, 01 Jan 2037 00:00:00 GMT"),
        ])
        let freshness = CacheFreshness(
            status: 200, fields: fields, requestTime: Self.received, responseTime: Self.received, now: Self.after(10))
        #expect(freshness == CacheFreshness(age: 10, lifetime: 60, isHeuristic: false))
    }

    @Test func expiresCountsFromDateAndAnInvalidExpiresIsAlreadyStale() {
        let date = "Fri, 15 Jan 2027 08:00:00 GMT"
        let valid = CacheFreshness(
            status: 200, fields: Self.fields([("Date", date), ("Expires", "Fri, 15 Jan 2027 08:01:40 GMT")]),
            requestTime: Self.received, responseTime: Self.received, now: Self.received)
        #expect(valid.lifetime == 100)
        let invalid = CacheFreshness(
            status: 200, fields: Self.fields([("Expires", "0")]), requestTime: Self.received,
            responseTime: Self.received, now: Self.received)
        #expect(invalid.lifetime == 0 && !invalid.isHeuristic)
    }

    @Test func ageCountsTheAgeFieldTheTripAndTheTimeStored() {
        let fields = Self.fields([("Cache-Control", "max-age=60"), ("Age", "20")])
        let freshness = CacheFreshness(
            status: 200, fields: fields, requestTime: Self.received, responseTime: Self.after(2), now: Self.after(12))
        // corrected_initial_age = 20 + 2 (response delay); resident 10.
        #expect(freshness.age == 32)
        #expect(freshness.timeToLive == 28)
    }

    @Test func heuristicFreshnessIsTenPercentOfTheTimeSinceLastModifiedForCacheableStatusesOnly() {
        let lines = [("Date", "Fri, 15 Jan 2027 10:00:00 GMT"), ("Last-Modified", "Fri, 15 Jan 2027 00:00:00 GMT")]
        let ok = CacheFreshness(
            status: 200, fields: Self.fields(lines), requestTime: Self.received, responseTime: Self.received,
            now: Self.received)
        #expect(ok == CacheFreshness(age: 0, lifetime: 3600, isHeuristic: true))
        let accepted = CacheFreshness(
            status: 202, fields: Self.fields(lines), requestTime: Self.received, responseTime: Self.received,
            now: Self.received)
        #expect(accepted.lifetime == 0)
    }

    @Test func hostileValuesNeitherOverflowNorCrash() {
        let fields = Self.fields([
            ("Cache-Control", "max-age=99999999999999999999999, stale-if-error=9223372036854775807, max-stale="),
            ("Age", "9223372036854775807"), ("Date", "Thu, 01 Jan 1970 00:00:00 GMT"),
            ("Expires", "Fri, 31 Dec 9999 23:59:59 GMT"), ("Last-Modified", "garbage"),
        ])
        let freshness = CacheFreshness(
            status: 200, fields: fields, requestTime: .distantPast, responseTime: .distantFuture, now: .distantFuture)
        #expect(freshness.lifetime == 0 && freshness.age > 0)
        #expect(freshness.timeToLive < 0 && freshness.staleness > 0)
        let entry = Self.entry([("Cache-Control", "max-age=9223372036854775807"), ("Age", "9223372036854775807")])
        _ = CacheLookup.decide(fields: fields, mode: .standard, stored: [entry], now: .distantFuture)
    }

    // MARK: Lookup

    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let stored: [(String, String)]
        let request: [(String, String)]
        let mode: CacheMode
        let elapsed: Double
        let expected: String
        var testDescription: String { name }

        init(
            _ name: String, stored: [(String, String)], request: [(String, String)] = [], mode: CacheMode = .standard,
            after elapsed: Double, _ expected: String
        ) {
            self.name = name
            self.stored = stored
            self.request = request
            self.mode = mode
            self.elapsed = elapsed
            self.expected = expected
        }
    }

    static let cases: [Case] = [
        Case("fresh max-age serves", stored: [("Cache-Control", "max-age=60")], after: 10, "serve"),
        Case("stale max-age validates", stored: [("Cache-Control", "max-age=60")], after: 61, "validate stale"),
        Case(
            "no-cache response validates even when fresh", stored: [("Cache-Control", "max-age=60, no-cache")],
            after: 1, "validate request"),
        Case(
            "no-cache request validates", stored: [("Cache-Control", "max-age=60")],
            request: [("Cache-Control", "no-cache")], after: 1, "validate request"),
        Case(
            "max-stale accepts stale", stored: [("Cache-Control", "max-age=60")],
            request: [("Cache-Control", "max-stale=30")], after: 80, "serve"),
        Case(
            "max-stale too short validates", stored: [("Cache-Control", "max-age=60")],
            request: [("Cache-Control", "max-stale=10")], after: 80, "validate stale"),
        Case(
            "must-revalidate overrides max-stale", stored: [("Cache-Control", "max-age=60, must-revalidate")],
            request: [("Cache-Control", "max-stale")], after: 80, "validate stale"),
        Case(
            "request max-age refuses an older fresh response", stored: [("Cache-Control", "max-age=600")],
            request: [("Cache-Control", "max-age=10")], after: 20, "validate request"),
        Case(
            "min-fresh refuses a response about to go stale", stored: [("Cache-Control", "max-age=60")],
            request: [("Cache-Control", "min-fresh=30")], after: 40, "validate request"),
        Case(
            "only-if-cached serves fresh", stored: [("Cache-Control", "max-age=60")],
            request: [("Cache-Control", "only-if-cached")], after: 1, "serve"),
        Case(
            "only-if-cached with only stale is a 504", stored: [("Cache-Control", "max-age=60")],
            request: [("Cache-Control", "only-if-cached")], after: 100, "504"),
        Case(
            "stale-while-revalidate inside the window",
            stored: [("Cache-Control", "max-age=60, stale-while-revalidate=30")],
            after: 80, "serve-while-revalidating"),
        Case(
            "stale-while-revalidate past the window validates",
            stored: [("Cache-Control", "max-age=60, stale-while-revalidate=30")], after: 100, "validate stale"),
        Case("reload forwards", stored: [("Cache-Control", "max-age=60")], mode: .reload, after: 1, "forward request"),
        Case(
            "revalidate mode validates", stored: [("Cache-Control", "max-age=60")], mode: .revalidate, after: 1,
            "validate request"),
        Case(
            "preferCached serves stale", stored: [("Cache-Control", "max-age=60")], mode: .preferCached, after: 999,
            "serve"),
        Case(
            "onlyCached serves stale", stored: [("Cache-Control", "max-age=60")], mode: .onlyCached, after: 999,
            "serve"),
        Case(
            "onlyCached keeps must-revalidate", stored: [("Cache-Control", "max-age=60, must-revalidate")],
            mode: .onlyCached, after: 999, "504"),
    ]

    @Test(arguments: cases)
    func lookupDecides(_ test: Case) {
        let lookup = CacheLookup.decide(
            fields: Self.fields(test.request), mode: test.mode, stored: [Self.entry(test.stored)],
            now: Self.after(test.elapsed))
        #expect(Self.summary(lookup) == test.expected)
    }

    @Test func nothingStoredIsAURIMissAndOnlyIfCachedMakesIt504() {
        #expect(
            Self.summary(CacheLookup.decide(fields: [:], mode: .standard, stored: [], now: Self.received))
                == "forward uri-miss")
        #expect(
            Self.summary(
                CacheLookup.decide(
                    fields: Self.fields([("Cache-Control", "only-if-cached")]), mode: .standard, stored: [],
                    now: Self.received)) == "504")
        #expect(
            Self.summary(CacheLookup.decide(fields: [:], mode: .onlyCached, stored: [], now: Self.received)) == "504")
    }

    @Test func varyingFieldsSelectTheVariantAndAbsentDiffersFromEmpty() {
        let english = Self.entry([("Cache-Control", "max-age=60")], varying: ["accept-language": "en"])
        let none = Self.entry([("Cache-Control", "max-age=60")], varying: ["accept-language": String?.none])
        let french = Self.fields([("Accept-Language", "fr")])
        #expect(
            Self.summary(
                CacheLookup.decide(fields: french, mode: .standard, stored: [english, none], now: Self.received))
                == "forward vary-miss")
        #expect(
            Self.summary(
                CacheLookup.decide(
                    fields: Self.fields([("accept-language", "en")]), mode: .standard, stored: [english],
                    now: Self.received)) == "serve")
        #expect(
            Self.summary(CacheLookup.decide(fields: [:], mode: .standard, stored: [english, none], now: Self.received))
                == "serve")
    }

    @Test func varyStarIsNeverStoredAndVaryNamesAreLowerCasedOnce() {
        #expect(StoredResponse.varyingNames(Self.fields([("Vary", "Accept, *")])) == nil)
        #expect(
            StoredResponse.varyingNames(Self.fields([("Vary", "Accept-Language, accept"), ("Vary", "ACCEPT")]))
                == ["accept-language", "accept"])
    }

    @Test func aNotModifiedUpdatesHeadersButKeepsTheBodysFraming() {
        var entry = Self.entry([
            ("Content-Type", "text/plain"), ("Content-Length", "6"), ("ETag", "\"a\""), ("Cache-Control", "max-age=1"),
        ])
        entry.update(
            with: Self.fields([
                ("Cache-Control", "max-age=90"), ("Content-Length", "0"), ("Connection", "close, x-hop"),
                ("X-Hop", "1"),
                ("X-New", "yes"),
            ]))
        #expect(
            entry.headerLines == [
                ["Content-Type", "text/plain"], ["Content-Length", "6"], ["ETag", "\"a\""],
                ["Cache-Control", "max-age=90"],
                ["X-New", "yes"],
            ])
    }

    @Test func cacheStatusIsWrittenInRFC9211Order() {
        #expect(CacheStatus(hit: true, timeToLive: -5).value == "Courier; hit; ttl=-5")
        #expect(
            CacheStatus(forward: .uriMiss, forwardStatus: 200, stored: true, timeToLive: 60).value
                == "Courier; fwd=uri-miss; fwd-status=200; stored; ttl=60")
    }

    static func summary(_ lookup: CacheLookup) -> String {
        switch lookup {
        case .serve: "serve"
        case .serveWhileRevalidating: "serve-while-revalidating"
        case .validate(_, _, let forward): "validate \(forward.rawValue)"
        case .forward(let forward): "forward \(forward.rawValue)"
        case .gatewayTimeout: "504"
        }
    }
}
