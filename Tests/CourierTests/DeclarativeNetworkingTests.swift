import CourierFoundation
import Foundation
import HTTPTypes
import Testing

@testable import Courier

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// DeclarativeNetworking's vocabulary, written as its users write it, on `URLRequest` and on
/// `Request`: each snippet checked for the exact method, URL, header lines and body bytes.
/// (`URLRequest` keeps its header fields in a dictionary, so there they are checked as a set.)
@Suite struct DeclarativeNetworkingTests {
    static let templateURL = "https://api.example.com"
    let template: URLRequest

    init() throws {
        template = URLRequest(url: try #require(URL(string: Self.templateURL)))
    }

    /// The `Accept-Language` line `AcceptLanguage()` gives in this process, if any; what it makes
    /// of each environment is pinned by `DeclarativeNetworkingAcceptLanguageTests`.
    func acceptLanguage() throws -> [HTTPField] {
        Array(try Request(template).updating { AcceptLanguage() }.headerFields)
    }

    @Test func theIssueSnippetBuildsExactlyTheRequestOnURLRequestAndOnRequest() throws {
        let accountId = "42"
        let sinceId: String? = "1000"
        let token = "abc.def"
        let fromURLRequest = try template.updating {
            HTTPMethod.POST
            "v1/accounts"
            accountId
            "media"
            if let since = sinceId { URLQueryItem(name: "sinceId", value: since) }
            URLQueryItem(name: "limit", value: "20")
            ContentType("image/jpeg")
            Authorization(.bearer(token))
            AcceptLanguage()
            IdempotencyKey()
            CacheControl([.noCache, .noStore])
        }
        let fromRequest = try Request(template).updating {
            HTTPMethod.POST
            "v1/accounts"
            accountId
            "media"
            if let since = sinceId { URLQueryItem(name: "sinceId", value: since) }
            URLQueryItem(name: "limit", value: "20")
            ContentType("image/jpeg")
            Authorization(.bearer(token))
            AcceptLanguage()
            IdempotencyKey()
            CacheControl([.noCache, .noStore])
        }
        let url = "https://api.example.com/v1/accounts/42/media?sinceId=1000&limit=20"
        let languages = try acceptLanguage()

        #expect(fromRequest.method == .post && fromRequest.url.absoluteString == url && fromRequest.body == nil)
        let key = try #require(fromRequest.headerFields[HTTPField.Name("Idempotency-Key")!])
        #expect(isFreshIdempotencyKey(key))
        let expected: [HTTPField] =
            [HTTPField(name: .contentType, value: "image/jpeg")] + languages + [
                HTTPField(name: HTTPField.Name("Idempotency-Key")!, value: key),
                HTTPField(name: .cacheControl, value: "no-cache, no-store"),
                HTTPField(name: .authorization, value: "Bearer abc.def"),
            ]
        #expect(Array(fromRequest.wireHeaderFields) == expected)

        #expect(fromURLRequest.httpMethod == "POST" && fromURLRequest.url?.absoluteString == url)
        #expect(fromURLRequest.httpBody == nil && fromURLRequest.httpBodyStream == nil)
        let urlKey = try #require(fromURLRequest.value(forHTTPHeaderField: "Idempotency-Key"))
        #expect(isFreshIdempotencyKey(urlKey) && urlKey != key)
        var headers = [
            "Content-Type": "image/jpeg", "Idempotency-Key": urlKey, "Cache-Control": "no-cache, no-store",
            "Authorization": "Bearer abc.def",
        ]
        for field in languages { headers[field.name.rawName] = field.value }
        #expect(fromURLRequest.allHTTPHeaderFields == headers)
    }

    @Test func anUpdateThatFailsIsATypedErrorNamingTheBlock() {
        let error = #expect(throws: CourierError.self) {
            try template.updating { ContentType("image/jpeg\r\nX-Injected: 1") }
        }
        #expect(error?.code == .invalidRequest && error?.source == "ContentType")
    }

    @Test func dataIsTheBodyAndATupleGivesItsMediaType() async throws {
        let bytes = Data([0, 1, 2, 255])
        let plain = try Request(template).updating {
            HTTPMethod.PUT
            bytes
        }
        #expect(plain.method == .put && plain.url.absoluteString == Self.templateURL)
        #expect(lines(plain.wireHeaderFields) == ["Content-Length: 4"])
        #expect(try await plain.body?.collect() == bytes)

        let typed = try Request(template).updating {
            HTTPMethod.PUT
            "v1/avatar"
            (bytes, "image/png")
        }
        #expect(typed.method == .put && typed.url.absoluteString == "https://api.example.com/v1/avatar")
        #expect(lines(typed.wireHeaderFields) == ["Content-Type: image/png", "Content-Length: 4"])
        #expect(try await typed.body?.collect() == bytes)

        let typedURLRequest = try template.updating {
            HTTPMethod.PUT
            "v1/avatar"
            (bytes, "image/png")
        }
        #expect(
            typedURLRequest.httpMethod == "PUT"
                && typedURLRequest.url?.absoluteString == "https://api.example.com/v1/avatar")
        #expect(typedURLRequest.allHTTPHeaderFields == ["Content-Type": "image/png", "Content-Length": "4"])
        #expect(typedURLRequest.httpBody == bytes)
    }

    struct Signature: URLRequestUpdating {
        func updatingUrlRequest(_ request: URLRequest) throws -> URLRequest {
            var request = request
            request.setValue(
                "sig(\(request.httpMethod ?? "")\(request.url?.path ?? ""))", forHTTPHeaderField: "X-Signature")
            request.setValue(nil, forHTTPHeaderField: "X-Remove-Me")
            return request
        }
    }

    struct RequestSource: URLRequestHeader {
        var name: String { "X-Request-Source" }
        var value: String { "widget" }
    }

    @Test func userTypesUpdateTheRequestOrSetAHeaderWrittenDirectlyAsBlocks() throws {
        let request = try Request(template).updating {
            Signature()
            HTTPMethod.DELETE
            Header.custom("X-Remove-Me").setValue("1")
            RequestSource()
            "v1/items"
        }
        #expect(
            request.method == .delete && request.url.absoluteString == "https://api.example.com/v1/items"
                && request.body == nil)
        #expect(lines(request.wireHeaderFields) == ["X-Request-Source: widget", "X-Signature: sig(DELETE/v1/items)"])
        let bad = #expect(throws: CourierError.self) {
            try Request(template).updating {
                Header.custom("X-Remove-Me").setValue("1")
                BadUpdate()
            }
        }
        #expect(bad?.code == .invalidRequest && bad?.source?.contains("BadUpdate") == true)
    }

    struct BadUpdate: URLRequestUpdating {
        struct Failure: Error {}
        func updatingUrlRequest(_ request: URLRequest) throws -> URLRequest { throw Failure() }
    }

    @Test func basicAuthorizationTakesTheEnumForm() throws {
        let request = try Request(template).updating { Authorization(.basic(username: "ada", password: "s3cret")) }
        #expect(request.method == .get && request.url.absoluteString == Self.templateURL && request.body == nil)
        #expect(lines(request.wireHeaderFields) == ["Authorization: Basic YWRhOnMzY3JldA=="])
    }

    @Test func aURLRequestGivesItsCurlCommandWithoutHeadersCurlSendsItself() throws {
        var urlRequest = try URLRequest {
            BaseURL("https://api.example.com")
            HTTPMethod.POST
            "v1/notes"
            RequestBody.string("hello", type: .plainText)
        }
        urlRequest.setValue("*/*", forHTTPHeaderField: "Accept")
        #expect(urlRequest.value(forHTTPHeaderField: "Content-Length") == "5")
        #expect(
            urlRequest.curlCommand == """
                curl 'https://api.example.com/v1/notes' \\
                  -H 'Content-Type: text/plain' \\
                  -H 'User-Agent:' \\
                  --data-binary 'hello'
                """)
        let form = try URLRequest {
            BaseURL("https://api.example.com")
            HTTPMethod.POST
            RequestBody.urlEncoded([URLQueryItem(name: "q", value: "1")])
        }
        #expect(
            form.curlCommand == """
                curl 'https://api.example.com' \\
                  -H 'Accept:' \\
                  -H 'User-Agent:' \\
                  --data-binary 'q=1'
                """)
        #expect(URLRequest(url: try #require(URL(string: "relative"))).curlCommand.hasPrefix("# no curl command: "))
    }
}

/// Whether `key` is what `IdempotencyKey()` makes: a random (version 4) UUID in lowercase.
func isFreshIdempotencyKey(_ key: String) -> Bool {
    key.wholeMatch(of: #/[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/#) != nil
}
