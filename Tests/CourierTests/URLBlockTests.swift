import Courier
import Foundation
import Testing

@Suite("URL blocks")
struct URLBlockTests {

    @Test func baseURLPathIsKeptAndComponentsAppendToIt() throws {
        let request = try Request {
            BaseURL("https://api.example.com/v1/")
            "users"
            "42"
        }
        #expect(request.url.absoluteString == "https://api.example.com/v1/users/42")
    }

    @Test func baseURLWithoutTrailingSlashStillTakesComponents() throws {
        let request = try Request {
            BaseURL("https://api.example.com/v1")
            "users"
        }
        #expect(request.url.absoluteString == "https://api.example.com/v1/users")
    }

    @Test func baseURLKeepsItsPort() throws {
        let request = try Request {
            BaseURL("http://localhost:8080")
            Endpoint("/health")
        }
        #expect(request.url.absoluteString == "http://localhost:8080/health")
        #expect(request.port == 8080)
    }

    @Test func baseURLAcceptsAnIPv6Literal() throws {
        let bare = try Request { BaseURL("http://[::1]:8080") }
        #expect(bare.url.absoluteString == "http://[::1]:8080")
        #expect(bare.url.host == "::1")
        let withPath = try Request {
            BaseURL("http://[::1]:8080")
            "status"
        }
        #expect(withPath.url.absoluteString == "http://[::1]:8080/status")
        let zoned = try Request { BaseURL("http://[FE80::1%25eth0]/") }
        #expect(zoned.url.absoluteString == "http://[fe80::1%25eth0]/")
    }

    @Test func baseURLLowercasesSchemeAndHostButNotPath() throws {
        let request = try Request { BaseURL("HTTPS://API.Example.COM/V1/Users") }
        #expect(request.url.absoluteString == "https://api.example.com/V1/Users")
    }

    @Test func baseURLResolvesAPathDeclaredBeforeIt() throws {
        let relative = try Request {
            Endpoint("users")
            BaseURL("https://api.example.com/v1/")
        }
        #expect(relative.url.absoluteString == "https://api.example.com/v1/users")
        let fromRoot = try Request {
            Endpoint("/users")
            BaseURL("https://api.example.com/v1/")
        }
        #expect(fromRoot.url.absoluteString == "https://api.example.com/users")
        let sibling = try Request {
            Endpoint("users")
            BaseURL("https://api.example.com/v1")
        }
        #expect(sibling.url.absoluteString == "https://api.example.com/users")
    }

    @Test func baseURLPutsItsQueryBeforeTheQueryDeclaredEarlier() throws {
        let request = try Request {
            Endpoint("users")
            Query("page", 2)
            BaseURL("https://api.example.com/v1/?key=k")
        }
        #expect(request.url.absoluteString == "https://api.example.com/v1/users?key=k&page=2")
    }

    @Test func baseURLQueryComesBeforeLaterQueryItems() throws {
        let request = try Request {
            BaseURL("https://api.example.com/search?key=k")
            Query("q", "swift")
        }
        #expect(request.url.absoluteString == "https://api.example.com/search?key=k&q=swift")
    }

    @Test func baseURLKeepsUserInformationAndEncodesWhatMustBe() throws {
        let request = try Request { BaseURL("https://us er:p%40ss@api.example.com/") }
        #expect(request.url.absoluteString == "https://us%20er:p%40ss@api.example.com/")
        #expect(request.url.user == "us er")
    }

    @Test func baseURLDropsTheFragment() throws {
        let request = try Request { BaseURL("https://api.example.com/docs?v=1#intro") }
        #expect(request.url.absoluteString == "https://api.example.com/docs?v=1")
    }

    @Test func baseURLFromAURLValue() throws {
        let url = try #require(URL(string: "https://api.example.com/v2/"))
        let request = try Request {
            BaseURL(url)
            Endpoint("items")
        }
        #expect(request.url.absoluteString == "https://api.example.com/v2/items")
    }

    @Test func laterBaseURLMovesTheRequestToAnotherHostKeepingPathAndQuery() throws {
        let production = try Request {
            BaseURL("https://api.example.com/v1/")
            "users"
            Query("page", 2)
        }
        let staging = try production.updating { BaseURL("http://staging.internal:8080") }
        #expect(staging.url.absoluteString == "http://staging.internal:8080/v1/users?page=2")
    }

    static let invalidBaseURLs = [
        "api.example.com/v1", "/v1/users", "", "localhost:8080", "https:api.example.com", "https:///v1",
        "https://:443/", "ftp://files.example.com/", "mailto:someone@example.com", "http://exa mple.com/",
        "http://[::1", "http://[::1]x/", "http://[not-ipv6]/", "http://host:99999/", "http://host:8a/",
        "https://bücher.example/", "https://api.example.com/\r\nX-Injected: 1", "https://api.example.com/\u{0}",
        "::::", "1http://x/",
    ]

    @Test(arguments: invalidBaseURLs)
    func invalidBaseURLIsATypedErrorNamingBaseURL(_ text: String) {
        let error = #expect(throws: CourierError.self) {
            try Request { BaseURL(text) }
        }
        #expect(error?.code == .invalidRequest)
        #expect(error?.source == "BaseURL")
    }

    @Test func missingBaseURLIsReportedAtBuild() {
        let error = #expect(throws: CourierError.self) {
            try Request { Endpoint("users") }
        }
        #expect(error?.code == .invalidRequest)
        #expect(error?.source == "BaseURL")
    }

    @Test func endpointBeforeBaseURLChainsRelativeReferences() throws {
        let request = try Request {
            Endpoint("v1/")
            Endpoint("users/")
            Endpoint("42")
            BaseURL("https://api.example.com/")
        }
        #expect(request.url.absoluteString == "https://api.example.com/v1/users/42")
    }

    @Test func endpointDotDotsAboveAPendingReferenceClimbTheBasePath() throws {
        let pending = try Request {
            Endpoint("a/b/")
            Endpoint("../../../x")
            BaseURL("https://h.example/v1/sub/")
        }
        let inOrder = try Request {
            BaseURL("https://h.example/v1/sub/")
            Endpoint("a/b/")
            Endpoint("../../../x")
        }
        #expect(pending.url.absoluteString == "https://h.example/v1/x")
        #expect(inOrder.url.absoluteString == pending.url.absoluteString)
    }

    @Test func endpointNetworkPathDeclaredFirstKeepsItsHost() throws {
        let request = try Request {
            Endpoint("//cdn.example.com/logo.png")
            BaseURL("https://api.example.com/v1/")
        }
        #expect(request.url.absoluteString == "https://cdn.example.com/logo.png")
    }

    @Test func endpointEncodesWhatCannotAppearInAURL() throws {
        let request = try Request {
            BaseURL("https://api.example.com/v1/")
            Endpoint("a b/ü/[x]/100%/%41?q=x y&r=\"é\"")
        }
        #expect(
            request.url.absoluteString
                == "https://api.example.com/v1/a%20b/%C3%BC/%5Bx%5D/100%25/%41?q=x%20y&r=%22%C3%A9%22")
    }

    @Test func endpointQueryReplacesQueryItemsDeclaredBeforeIt() throws {
        let request = try Request {
            BaseURL("https://api.example.com/")
            Query("a", "1")
            Endpoint("users?b=2")
            Query("c", "3")
        }
        #expect(request.url.absoluteString == "https://api.example.com/users?b=2&c=3")
    }

    @Test func endpointPathWithoutQueryDropsTheQueryLikeALink() throws {
        let request = try Request {
            BaseURL("https://api.example.com/?key=k")
            Endpoint("users")
        }
        #expect(request.url.absoluteString == "https://api.example.com/users")
    }

    @Test func emptyEndpointKeepsPathAndQuery() throws {
        let request = try Request {
            BaseURL("https://api.example.com/users")
            Query("page", 2)
            Endpoint("")
            Endpoint("#section")
        }
        #expect(request.url.absoluteString == "https://api.example.com/users?page=2")
    }

    @Test func endpointFromARelativeURLValue() throws {
        let relative = try #require(URL(string: "users/42?fields=name"))
        let request = try Request {
            BaseURL("https://api.example.com/v1/")
            Endpoint(relative)
        }
        #expect(request.url.absoluteString == "https://api.example.com/v1/users/42?fields=name")
    }

    static let invalidEndpoints = [
        "users\r\nHost: evil.example", "users\n", "a\u{0}b", "a\tb", "ftp://files.example.com/x", "users:list",
        "https://", "https:g", "//exa mple.com/x", "http://[::1/x", "https://h:65536/",
    ]

    @Test(arguments: invalidEndpoints)
    func invalidEndpointIsATypedErrorNamingEndpoint(_ reference: String) {
        let error = #expect(throws: CourierError.self) {
            try Request {
                BaseURL("http://api.example.com/")
                Endpoint(reference)
            }
        }
        #expect(error?.code == .invalidRequest)
        #expect(error?.source == "Endpoint")
    }

    @Test func aStringValueIsEncodedAsOneSegment() throws {
        let segments = ["a/b", "hello world", "café", "..", "."]
        let request = try Request {
            BaseURL("https://api.example.com")
            "files"
            for segment in segments { segment }
        }
        #expect(request.url.absoluteString == "https://api.example.com/files/a%2Fb/hello%20world/caf%C3%A9/%2E%2E/%2E")
    }

    @Test func aStringLiteralAppendsItsSlashSeparatedSegmentsEachEncoded() throws {
        let request = try Request {
            BaseURL("https://api.example.com/api")
            "/v1/files/"
            "a b//c"
            "../x"
        }
        #expect(request.url.absoluteString == "https://api.example.com/api/v1/files/a%20b/c/%2E%2E/x")
    }

    @Test func queryItemsAccumulateInOrderAndNilIsOmitted() throws {
        let cursor: String? = nil
        let request = try Request {
            BaseURL("https://api.example.com/items")
            Query("page", 2)
            Query("cursor", cursor)
            Query("sort", "name")
            Query(flag: "verbose")
        }
        #expect(request.url.absoluteString == "https://api.example.com/items?page=2&sort=name&verbose")
    }

    @Test func queryEncodesDelimitersAndSpaces() throws {
        let request = try Request {
            BaseURL("https://api.example.com/search")
            Query("q", "a&b=c+d#e f")
            Query("x y", "ü")
        }
        #expect(request.url.absoluteString == "https://api.example.com/search?q=a%26b%3Dc%2Bd%23e%20f&x%20y=%C3%BC")
        #expect(request.queryItems.first?.value == "a&b=c+d#e f")
    }

    @Test func urlQueryItemInABuilderIsAQueryBlock() throws {
        let request = try Request {
            BaseURL("https://api.example.com/search")
            URLQueryItem(name: "q", value: "swift & c")
            URLQueryItem(name: "exact", value: nil)
        }
        #expect(request.url.absoluteString == "https://api.example.com/search?q=swift%20%26%20c&exact")
    }

    @Test func urlBuildRequestStartsFromTheWholeURL() throws {
        let url = try #require(URL(string: "https://api.example.com/v1/items?key=k#frag"))
        let request = try url.buildRequest {
            "42"
            Query("page", 2)
        }
        #expect(request.url.absoluteString == "https://api.example.com/v1/items/42?key=k&page=2")
        let bare = try url.buildRequest {}
        #expect(bare.url.absoluteString == "https://api.example.com/v1/items?key=k")
    }

    @Test func urlBuildRequestRejectsAnUnsupportedScheme() throws {
        let url = try #require(URL(string: "ftp://files.example.com/x"))
        let error = #expect(throws: CourierError.self) { try url.buildRequest {} }
        #expect(error?.source == "BaseURL")
    }

    @Test(arguments: [true, false])
    func controlFlowCombinesURLBlocks(_ includeArchived: Bool) throws {
        enum Sort { case name, date }
        let tags = ["swift", "http"]
        let cursor: String? = includeArchived ? "c1" : nil
        let sort = includeArchived ? Sort.date : .name
        let request = try Request {
            BaseURL("https://api.example.com/v1/")
            Endpoint("projects")
            if includeArchived {
                "archived"
            } else {
                "active"
            }
            for tag in tags {
                URLQueryItem(name: "tag", value: tag)
            }
            if let cursor {
                Query("cursor", cursor)
            }
            switch sort {
            case .name: Query("sort", "name")
            case .date: Query("sort", "-date")
            }
        }
        let expected =
            includeArchived
            ? "https://api.example.com/v1/projects/archived?tag=swift&tag=http&cursor=c1&sort=-date"
            : "https://api.example.com/v1/projects/active?tag=swift&tag=http&sort=name"
        #expect(request.url.absoluteString == expected)
    }
}

@Suite("Path components declared before the base URL")
struct EarlyPathComponentTests {
    @Test func aComponentBeforeTheBaseStaysRelativeToIt() throws {
        let request = try Request {
            "users"
            "42"
            BaseURL("https://api.example.com/v1/")
        }
        #expect(request.url.absoluteString == "https://api.example.com/v1/users/42")
    }

    @Test func aColonInTheFirstRelativeSegmentIsNotASchemeLater() throws {
        let request = try Request {
            "a:b"
            BaseURL("https://api.example.com/")
        }
        #expect(request.url.absoluteString == "https://api.example.com/a%3Ab")
    }

    @Test func hostIsReportedWithoutIPv6Brackets() throws {
        let request = try Request { BaseURL("http://[::1]:8080/x") }
        #expect(request.host == "::1")
        #expect(request.port == 8080)
        #expect(request.path == "/x")
    }

    /// `host` and `port` read the URL's own parse; they must say what `URLComponents` says.
    @Test(arguments: [
        "http://[::1]:8080/x", "http://[fe80::1%25eth0]/", "http://a%41b.example/x", "https://API.Example.COM./v1",
        "http://user:pw@h:81/x", "http://127.0.0.1/", "http:///x", "http:/x", "mailto:ada@example.com",
        "https://xn--bcher-kva.example/", "https://api.XN--bcher-kva.example/", "http://axn--b.example/",
        "http://x-n--b.example/", "http://h:0/", "http://h:/x", "ws://h:65535",
    ])
    func hostAndPortAgreeWithURLComponents(_ text: String) throws {
        let url = try #require(URL(string: text))
        let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        let expectedHost = components?.host.map {
            $0.hasPrefix("[") && $0.hasSuffix("]") ? String($0.dropFirst().dropLast()) : $0
        }
        let request = Request(url: url)
        #expect(request.host == expectedHost)
        #expect(request.port == components?.port)
    }
}
