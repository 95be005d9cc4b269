import Foundation
import HTTPTypes
import Testing

@testable import Courier

/// RFC 6265's storage and matching rules, and the Netscape cookie file, without a network.
@Suite struct CookieJarTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let site = URL(string: "https://www.example.com/shop/cart")!

    func fields(_ setCookies: String...) -> HTTPFields {
        var fields = HTTPFields()
        for value in setCookies { fields.append(HTTPField(name: .setCookie, value: value)) }
        return fields
    }

    @Test func anInsertedCookieReplacesOneOfTheSameNameDomainAndPathAndAnExpiredOneRemovesIt() throws {
        let jar = CookieJar()
        jar.insert(StoredCookie(name: "sid", value: "1", domain: "www.example.com", created: now), now: now)
        jar.insert(StoredCookie(name: "sid", value: "2", domain: "www.example.com", created: now), now: now)
        #expect(jar.cookieHeader(for: site, now: now) == "sid=2")
        jar.insert(
            StoredCookie(name: "sid", value: "", domain: "www.example.com", expires: now.addingTimeInterval(-1)),
            now: now)
        #expect(jar.cookieHeader(for: site, now: now) == nil)
    }

    @Test func aCookieWithoutDomainIsHostOnlyAndTakesTheDirectoryAsItsPath() throws {
        let cookie = try #require(StoredCookie(setCookie: "id=42", from: site, now: now))
        #expect(cookie.domain == "www.example.com" && cookie.isHostOnly && cookie.path == "/shop")
        #expect(cookie.matches(URL(string: "https://www.example.com/shop")!))
        #expect(cookie.matches(URL(string: "https://www.example.com/shop/items/1")!))
        #expect(!cookie.matches(URL(string: "https://www.example.com/shopping")!))
        #expect(!cookie.matches(URL(string: "https://api.www.example.com/shop")!), "host-only")
    }

    @Test func aDomainAttributeReachesSubdomainsButMustMatchTheHost() throws {
        let cookie = try #require(StoredCookie(setCookie: "id=1; Domain=.Example.com; Path=/", from: site, now: now))
        #expect(cookie.domain == "example.com" && !cookie.isHostOnly)
        #expect(cookie.matches(URL(string: "http://api.example.com/")!))
        #expect(cookie.matches(URL(string: "http://example.com/")!))
        #expect(!cookie.matches(URL(string: "http://badexample.com/")!))
        #expect(StoredCookie(setCookie: "id=1; Domain=other.org", from: site, now: now) == nil)
        #expect(StoredCookie(setCookie: "id=1; Domain=shop.www.example.com", from: site, now: now) == nil)
    }

    @Test func anIPAddressHostMatchesOnlyItself() throws {
        let url = URL(string: "http://127.0.0.1:8080/")!
        #expect(StoredCookie(setCookie: "a=1; Domain=0.0.1", from: url, now: now) == nil)
        let cookie = try #require(StoredCookie(setCookie: "a=1; Domain=127.0.0.1", from: url, now: now))
        #expect(cookie.matches(url))
    }

    @Test func secureCookiesGoOverHTTPSOnly() throws {
        let cookie = try #require(StoredCookie(setCookie: "s=1; Secure; Path=/", from: site, now: now))
        #expect(cookie.matches(URL(string: "https://www.example.com/")!))
        #expect(!cookie.matches(URL(string: "http://www.example.com/")!))
    }

    @Test func maxAgeWinsOverExpiresAndZeroOrPastRemoves() throws {
        let both = try #require(
            StoredCookie(setCookie: "a=1; Expires=Wed, 01 Jan 2100 00:00:00 GMT; Max-Age=60", from: site, now: now))
        #expect(both.expires == now.addingTimeInterval(60))
        let expires = try #require(
            StoredCookie(setCookie: "a=1; Expires=Wed, 01 Jan 2100 00:00:00 GMT", from: site, now: now))
        #expect(expires.expires == Date(timeIntervalSince1970: 4_102_444_800))
        let jar = CookieJar()
        jar.store(fields("a=1; Path=/", "b=2; Path=/"), from: site, now: now)
        jar.store(
            fields("a=; Max-Age=0; Path=/", "b=; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Path=/"), from: site, now: now)
        #expect(jar.cookieHeader(for: site, now: now) == nil)
        jar.store(fields("c=3; Max-Age=10; Path=/"), from: site, now: now)
        #expect(jar.cookieHeader(for: site, now: now.addingTimeInterval(5)) == "c=3")
        #expect(jar.cookieHeader(for: site, now: now.addingTimeInterval(11)) == nil)
    }

    @Test func longerPathsComeFirstThenOlderCookiesAndAReplacementKeepsItsPlace() {
        let jar = CookieJar()
        jar.store(fields("first=1; Path=/"), from: site, now: now)
        jar.store(fields("deep=2; Path=/shop/cart"), from: site, now: now.addingTimeInterval(1))
        jar.store(fields("second=3; Path=/"), from: site, now: now.addingTimeInterval(2))
        jar.store(fields("first=changed; Path=/"), from: site, now: now.addingTimeInterval(3))
        #expect(jar.cookieHeader(for: site, now: now.addingTimeInterval(4)) == "deep=2; first=changed; second=3")
    }

    @Test func malformedSetCookiesAreIgnored() {
        #expect(StoredCookie(setCookie: "no-equals-sign", from: site, now: now) == nil)
        #expect(StoredCookie(setCookie: "=value", from: site, now: now) == nil)
    }

    @Test func theNetscapeFileKeepsEveryAttributeAcrossASaveAndALoad() throws {
        let jar = CookieJar()
        let future = Date(timeIntervalSince1970: 4_102_444_800)
        jar.store(
            fields(
                "session=s1; Path=/",
                "sub=2; Domain=example.com; Path=/shop; Secure; HttpOnly; Expires=Wed, 01 Jan 2100 00:00:00 GMT"),
            from: site, now: Date())
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("courier-cookies-\(UUID()).txt").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        try jar.save(to: file)
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(text.contains("www.example.com\tFALSE\t/\tFALSE\t0\tsession\ts1"))
        #expect(text.contains("#HttpOnly_.example.com\tTRUE\t/shop\tTRUE\t4102444800\tsub\t2"))
        let loaded = try CookieJar(contentsOf: file)
        let byName = Dictionary(uniqueKeysWithValues: loaded.cookies.map { ($0.name, $0) })
        #expect(byName["session"].map { $0.isHostOnly && $0.domain == "www.example.com" && $0.expires == nil } == true)
        #expect(byName["sub"].map { !$0.isHostOnly && $0.isSecure && $0.isHTTPOnly && $0.expires == future } == true)
        #expect(loaded.cookieHeader(for: URL(string: "https://api.example.com/shop/x")!) == "sub=2")
    }

    @Test func aFileWrittenByCurlLoads() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("courier-curl-cookies-\(UUID()).txt")
            .path
        defer { try? FileManager.default.removeItem(atPath: file) }
        try """
        # Netscape HTTP Cookie File
        # https://curl.se/docs/http-cookies.html
        # This file was generated by libcurl! Edit at your own risk.

        127.0.0.1\tFALSE\t/\tFALSE\t0\tfrom_curl\tyes
        .example.com\tTRUE\t/\tFALSE\t1\tlong_gone\tx

        """.write(toFile: file, atomically: true, encoding: .utf8)
        let jar = try CookieJar(contentsOf: file)
        #expect(jar.cookies.map(\.name) == ["from_curl"])
        #expect(jar.cookieHeader(for: URL(string: "http://127.0.0.1:8080/cookies")!) == "from_curl=yes")
    }

    // MARK: - Bounds (RFC 6265 §6.1)

    @Test func aDomainKeepsItsNewestCookiesUpToItsLimitEvictingTheOldestFirst() {
        let jar = CookieJar()
        for index in 0..<120 {
            jar.insert(StoredCookie(name: "c\(index)", value: "v", domain: "www.example.com"), now: now)
        }
        let names = Set(jar.cookies.map(\.name))
        #expect(names.count == 50)
        #expect(names == Set((70..<120).map { "c\($0)" }))
        jar.insert(StoredCookie(name: "c70", value: "again", domain: "www.example.com"), now: now)
        jar.insert(StoredCookie(name: "new", value: "v", domain: "www.example.com"), now: now)
        #expect(!jar.cookies.contains { $0.name == "c71" }, "the oldest goes; setting c70 again made it new")
        #expect(jar.cookies.contains { $0.name == "c70" && $0.value == "again" })
    }

    @Test func theJarKeepsItsTotalEvictingTheOldestCookieOfAnyDomain() {
        var limits = CookieJar.Limits()
        limits.maxCookies = 10
        let jar = CookieJar(limits: limits)
        for index in 0..<25 {
            jar.insert(StoredCookie(name: "c", value: "\(index)", domain: "host\(index).example"), now: now)
        }
        #expect(jar.cookies.count == 10)
        #expect(Set(jar.cookies.map(\.domain)) == Set((15..<25).map { "host\($0).example" }))
    }

    @Test func aCookieLargerThanItsLimitIsIgnoredAndLeavesTheOneItWouldReplace() {
        let jar = CookieJar()
        jar.store(fields("big=small; Path=/"), from: site, now: now)
        jar.store(fields("big=\(String(repeating: "x", count: 4093)); Path=/"), from: site, now: now)
        #expect(jar.cookies.first { $0.name == "big" }?.value.count == 4093, "name and value within 4,096 bytes")
        jar.store(fields("big=\(String(repeating: "x", count: 4094)); Path=/"), from: site, now: now)
        #expect(
            jar.cookies.first { $0.name == "big" } == nil, "a too large cookie replaces nothing, as RFC 6265bis says")
    }

    @Test func theCookieFieldStaysWithinItsLimitLeavingOutTheCookiesThatComeLast() throws {
        let jar = CookieJar()
        for index in 0..<50 {
            jar.insert(
                StoredCookie(
                    name: "c\(index)", value: String(repeating: "v", count: 1000), domain: "www.example.com",
                    created: now.addingTimeInterval(Double(index))), now: now)
        }
        let header = try #require(jar.cookieHeader(for: site, now: now))
        #expect(header.utf8.count <= 8190)
        #expect(header.hasPrefix("c0=") && header.contains("c7=") && !header.contains("c8="), "oldest first")
    }

    @Test func aRequestReadsOnlyTheCookiesOfItsHostAndTheNamesAboveIt() {
        #expect(
            CookieStore.domains(containing: "a.b.example.com") == [
                "a.b.example.com", "b.example.com", "example.com", "com",
            ])
        #expect(CookieStore.domains(containing: "127.0.0.1") == ["127.0.0.1"])
        #expect(CookieStore.domains(containing: "::1") == ["::1"])
        let jar = CookieJar()
        jar.store(fields("top=1; Domain=example.com; Path=/", "own=2; Path=/"), from: site, now: now)
        jar.insert(StoredCookie(name: "other", value: "3", domain: "example.org"), now: now)
        #expect(jar.cookieHeader(for: site, now: now) == "top=1; own=2")
    }

    @Test func onlyASCIIDigitsAndDotsOrAColonMakeAnIPAddress() {
        #expect(StoredCookie.isIPAddress("127.0.0.1"))
        #expect(StoredCookie.isIPAddress("::1"))
        #expect(!StoredCookie.isIPAddress("example.com"))
        #expect(!StoredCookie.isIPAddress("\u{661}\u{662}.\u{663}"))  // Arabic-Indic digits: a name, not an address
    }

    @Test func anEmptyJarAddsNoCookieField() {
        var request = Request(method: .get, url: site)
        CookieJar().addCookies(to: &request, now: now)
        #expect(request.headerFields[.cookie] == nil)
    }
}
