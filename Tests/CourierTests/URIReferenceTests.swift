import Testing

@testable import Courier

@Suite("URI references (RFC 3986)")
struct URIReferenceTests {
    @Test func parsingSplitsTheFiveComponentsAsAppendixBDoes() {
        let reference = URIReference(parsing: "http://www.ics.uci.edu/pub/ietf/uri/?q=1#Related")
        #expect(
            reference
                == URIReference(
                    scheme: "http", authority: "www.ics.uci.edu", path: "/pub/ietf/uri/",
                    query: "q=1", fragment: "Related"))
    }

    @Test func parsingTellsAnEmptyComponentFromAnAbsentOne() {
        #expect(URIReference(parsing: "g?#") == URIReference(path: "g", query: "", fragment: ""))
        #expect(URIReference(parsing: "g") == URIReference(path: "g"))
        #expect(
            URIReference(parsing: "file:///etc/hosts")
                == URIReference(scheme: "file", authority: "", path: "/etc/hosts"))
        #expect(URIReference(parsing: "") == URIReference())
    }

    @Test func parsingReadsRelativeReferences() {
        #expect(URIReference(parsing: "//g/x") == URIReference(authority: "g", path: "/x"))
        #expect(URIReference(parsing: "?y") == URIReference(query: "y"))
        #expect(URIReference(parsing: "#s") == URIReference(fragment: "s"))
        #expect(URIReference(parsing: "g:h") == URIReference(scheme: "g", path: "h"))
        #expect(URIReference(parsing: "a/b:c") == URIReference(path: "a/b:c"))
        #expect(URIReference(parsing: ":x") == URIReference(path: ":x"))
        #expect(URIReference(parsing: "g?y/./x#s/../x") == URIReference(path: "g", query: "y/./x", fragment: "s/../x"))
    }

    @Test(arguments: [
        "http://a/b/c/d;p?q", "//g", "?y", "#s", "g;x?y#s", "", "mailto:a@b", "file:///x", "g?#", "http://[::1]:80/",
    ])
    func recomposingGivesBackTheParsedText(_ text: String) {
        #expect(URIReference(parsing: text).string == text)
    }

    @Test func removingDotSegmentsFollowsTheSection524Examples() {
        #expect(URIReference.removeDotSegments("/a/b/c/./../../g") == "/a/g")
        #expect(URIReference.removeDotSegments("mid/content=5/../6") == "mid/6")
        #expect(URIReference.removeDotSegments("/../../x") == "/x")
        #expect(URIReference.removeDotSegments("/a/.") == "/a/")
        #expect(URIReference.removeDotSegments("/a/%2E%2E/b") == "/a/%2E%2E/b")
    }

    @Test func mergingUsesSlashWhenTheBaseHasAnAuthorityAndNoPath() {
        #expect(URIReference.merge(basePath: "", baseHasAuthority: true, with: "g") == "/g")
        #expect(URIReference.merge(basePath: "/b/c/d", baseHasAuthority: true, with: "g") == "/b/c/g")
        #expect(URIReference.merge(basePath: "d", baseHasAuthority: false, with: "g") == "g")
    }

    static let rfcBase = URIReference(parsing: "http://a/b/c/d;p?q")

    /// RFC 3986 §5.4.1 and §5.4.2 as printed there, fragments included.
    static let rfcExamples: [(String, String)] = [
        ("g:h", "g:h"), ("g", "http://a/b/c/g"), ("./g", "http://a/b/c/g"), ("g/", "http://a/b/c/g/"),
        ("/g", "http://a/g"), ("//g", "http://g"), ("?y", "http://a/b/c/d;p?y"), ("g?y", "http://a/b/c/g?y"),
        ("#s", "http://a/b/c/d;p?q#s"), ("g#s", "http://a/b/c/g#s"), ("g?y#s", "http://a/b/c/g?y#s"),
        (";x", "http://a/b/c/;x"), ("g;x", "http://a/b/c/g;x"), ("g;x?y#s", "http://a/b/c/g;x?y#s"),
        ("", "http://a/b/c/d;p?q"), (".", "http://a/b/c/"), ("./", "http://a/b/c/"), ("..", "http://a/b/"),
        ("../", "http://a/b/"), ("../g", "http://a/b/g"), ("../..", "http://a/"), ("../../", "http://a/"),
        ("../../g", "http://a/g"), ("../../../g", "http://a/g"), ("../../../../g", "http://a/g"),
        ("/./g", "http://a/g"), ("/../g", "http://a/g"), ("g.", "http://a/b/c/g."), (".g", "http://a/b/c/.g"),
        ("g..", "http://a/b/c/g.."), ("..g", "http://a/b/c/..g"), ("./../g", "http://a/b/g"),
        ("./g/.", "http://a/b/c/g/"), ("g/./h", "http://a/b/c/g/h"), ("g/../h", "http://a/b/c/h"),
        ("g;x=1/./y", "http://a/b/c/g;x=1/y"), ("g;x=1/../y", "http://a/b/c/y"), ("g?y/./x", "http://a/b/c/g?y/./x"),
        ("g?y/../x", "http://a/b/c/g?y/../x"), ("g#s/./x", "http://a/b/c/g#s/./x"),
        ("g#s/../x", "http://a/b/c/g#s/../x"),
        ("http:g", "http:g"),
    ]

    @Test func resolutionMatchesEveryRFCExample() {
        for (reference, expected) in Self.rfcExamples {
            #expect(URIReference(parsing: reference).resolved(against: Self.rfcBase).string == expected, "\(reference)")
        }
    }

    @Test func nonStrictResolutionReadsTheBaseSchemeAsAbsent() {
        #expect(
            URIReference(parsing: "http:g").resolved(against: Self.rfcBase, strict: false).string == "http://a/b/c/g")
        #expect(
            URIReference(parsing: "HTTP:g").resolved(against: Self.rfcBase, strict: false).string == "http://a/b/c/g")
        #expect(URIReference(parsing: "https:g").resolved(against: Self.rfcBase, strict: false).string == "https:g")
    }

    @Test func relativeNormalizationKeepsTheDotDotsItCannotCancel() {
        #expect(URIReference.removeRelativeDotSegments("a/../../x") == "../x")
        #expect(URIReference.removeRelativeDotSegments("a/b/../c/./d") == "a/c/d")
        #expect(URIReference.removeRelativeDotSegments("..") == "../")
        #expect(URIReference.removeRelativeDotSegments("a/..") == "./")
        #expect(URIReference.removeRelativeDotSegments(".") == "./")
        #expect(URIReference.removeRelativeDotSegments("") == "")
    }

    @Test func relativeNormalizationKeepsAPathReadableAsRelative() {
        #expect(URIReference.removeRelativeDotSegments("./a:b") == "./a:b")
        #expect(URIReference.removeRelativeDotSegments("a/..//x") == ".//x")
    }

    static let bases = [
        "http://h", "http://h/", "http://h/v1", "http://h/v1/", "http://h/v1/sub/leaf?q", "http://h/a//b/",
    ]
    static let references = [
        "", "x", "x/", "x/y", "../x", "../../..", "..", ".", "./", "a//b", "/r", "//o/p", "?k", "./a:b", "x/..",
    ]

    /// Resolving a reference against a pending relative one first, then against the base, gives the
    /// same URI as resolving both against the base in turn; `Endpoint` before `BaseURL` relies on it.
    @Test(arguments: bases)
    func resolvingAgainstAPendingReferenceFirstGivesTheSameTarget(_ baseText: String) {
        let base = URIReference(parsing: baseText)
        for first in Self.references {
            for second in Self.references {
                let firstReference = URIReference(parsing: first)
                let secondReference = URIReference(parsing: second)
                let inTurn = secondReference.resolved(against: firstReference.resolved(against: base))
                let pending = secondReference.resolved(againstRelative: firstReference).resolved(against: base)
                #expect(pending == inTurn, "\(baseText) + \"\(first)\" + \"\(second)\"")
            }
        }
    }

    @Test func authorityParsingSplitsUserHostAndPort() {
        #expect(
            URIReference.Authority(parsing: "user:pw@host:8080")
                == URIReference.Authority(userinfo: "user:pw", host: "host", port: "8080"))
        #expect(URIReference.Authority(parsing: "[::1]:8080") == URIReference.Authority(host: "[::1]", port: "8080"))
        #expect(URIReference.Authority(parsing: "[::1]") == URIReference.Authority(host: "[::1]"))
        #expect(URIReference.Authority(parsing: "host:") == URIReference.Authority(host: "host", port: ""))
        #expect(URIReference.Authority(parsing: "a@b@c")?.userinfo == "a@b")
    }

    @Test func authorityParsingRefusesABrokenIPLiteral() {
        #expect(URIReference.Authority(parsing: "[::1") == nil)
        #expect(URIReference.Authority(parsing: "[::1]x") == nil)
    }
}

extension URIReference.Authority {
    init(userinfo: String? = nil, host: String, port: String? = nil) {
        self.init(parsing: "")!
        self.userinfo = userinfo
        self.host = host
        self.port = port
    }
}
