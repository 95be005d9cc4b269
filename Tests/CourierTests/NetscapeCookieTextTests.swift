import Foundation
import Testing

@testable import Courier

/// The Netscape cookie format: strict for text a program hands over, lenient for files, and the
/// jar's removal by domain, path and name.
@Suite struct NetscapeCookieTextTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func textRoundTripsEveryAttributeThroughAJar() throws {
        let jar = CookieJar()
        try jar.insert(
            netscapeText: """
                # a comment, then a blank line

                #HttpOnly_.example.com\tTRUE\t/app\tTRUE\t1900000000\tsid\tabc
                www.example.com\tFALSE\t/\tFALSE\t0\ttheme\tdark
                """)
        let copy = CookieJar()
        try copy.insert(netscapeText: jar.netscapeText)
        let cookies = copy.cookies.sorted { $0.name < $1.name }
        #expect(cookies.map(\.name) == ["sid", "theme"])
        let sid = cookies[0]
        #expect(sid.domain == "example.com" && !sid.isHostOnly && sid.path == "/app")
        #expect(sid.isSecure && sid.isHTTPOnly && sid.expires == Date(timeIntervalSince1970: 1_900_000_000))
        #expect(cookies[1].isHostOnly && cookies[1].expires == nil)
    }

    @Test(arguments: [
        ("example.com\tFALSE\t/\tFALSE\t0\tname", "6 tab-separated fields, not 7"),
        ("example.com\tFALSE\t/\tFALSE\tsoon\tname\tvalue", "is not a count of seconds"),
        ("exa mple.com\tFALSE\t/\tFALSE\t0\tname\tvalue", "is not a host name"),
        ("example.com\tFALSE\tapp\tFALSE\t0\tname\tvalue", "does not start with /"),
        ("example.com\tFALSE\t/\tFALSE\t0\tna=me\tvalue", "holds =, a space, ; or a control character"),
        ("example.com\tFALSE\t/\tFALSE\t0\tname\tva\r\nInjected: 1", "holds ; or a control character"),
        ("example.com\tFALSE\t/\tFALSE\t0\tname\ta;b", "holds ; or a control character"),
    ])
    func aMalformedLineIsRefusedNamingItsNumberAndNothingIsStored(line: String, reason: String) throws {
        let jar = CookieJar()
        let text = "example.com\tFALSE\t/\tFALSE\t0\tgood\t1\n" + line + "\n"
        let error = try #require(throws: NetscapeCookieText.MalformedLine.self) { try jar.insert(netscapeText: text) }
        #expect(error.line == 2)
        #expect(error.reason.contains(reason), "\(error)")
        #expect(jar.cookies.isEmpty)
    }

    @Test func aFileIsReadLikeCurlSkippingLinesThatAreNotCookies() throws {
        let text = "not a cookie\nexample.com\tFALSE\t/\tFALSE\t0\tkept\t1\nexample.com\tFALSE\t/\n"
        let cookies = NetscapeCookieText.cookiesSkippingMalformedLines(in: text, now: now)
        #expect(cookies.map(\.name) == ["kept"])
    }

    @Test func removalMatchesDomainPathAndNameEachOptional() throws {
        let jar = CookieJar()
        try jar.insert(
            netscapeText: """
                a.example\tFALSE\t/\tFALSE\t0\tid\t1
                a.example\tFALSE\t/x\tFALSE\t0\tid\t2
                .b.example\tTRUE\t/\tFALSE\t0\tid\t3
                b.example\tFALSE\t/\tFALSE\t0\tother\t4
                """)
        #expect(jar.remove(domain: "a.example", path: "/x") == 1)
        #expect(jar.remove(domain: ".B.example", name: "id") == 1)
        #expect(jar.cookies.map(\.value).sorted() == ["1", "4"])
        #expect(jar.remove() == 2)
        #expect(jar.cookies.isEmpty)
    }
}
