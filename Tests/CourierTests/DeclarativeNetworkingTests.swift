@testable import Courier
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPTypes
import Testing

/// DeclarativeNetworking's vocabulary, written as its users write it, on `URLRequest` and on
/// `Request`: each snippet checked for the exact method, URL, header lines and body bytes.
@Suite struct DeclarativeNetworkingTests {
    let template = URLRequest(url: URL(string: "https://api.example.com")!)

    /// What `AcceptLanguage()` sends in this process, so the exact header lines can be checked.
    var acceptLanguage: [HTTPField] {
        let languages = PreferredLanguages.current()
        guard !languages.isEmpty else { return [] }
        let value = languages.enumerated().map { index, tag in
            (try? QualityValue.append(index == 0 ? nil : max(0.1, 1 - Double(index) / 10), to: tag, block: "test")) ?? tag
        }.joined(separator: ", ")
        return [HTTPField(name: .acceptLanguage, value: value)]
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
        #expect(fromRequest.method == .post && fromRequest.url.absoluteString == url && fromRequest.body == nil)
        let key = try #require(fromRequest.headerFields[HTTPField.Name("Idempotency-Key")!])
        #expect(UUID(uuidString: key) != nil)
        var expected: [HTTPField] = [HTTPField(name: .contentType, value: "image/jpeg")] + acceptLanguage
        expected += [HTTPField(name: HTTPField.Name("Idempotency-Key")!, value: key),
                     HTTPField(name: .cacheControl, value: "no-cache, no-store"),
                     HTTPField(name: .authorization, value: "Bearer abc.def")]
        #expect(Array(fromRequest.headerFields) == expected)

        #expect(fromURLRequest.httpMethod == "POST" && fromURLRequest.url?.absoluteString == url && fromURLRequest.httpBody == nil)
        let headers = try #require(fromURLRequest.allHTTPHeaderFields)
        #expect(headers["Content-Type"] == "image/jpeg" && headers["Authorization"] == "Bearer abc.def")
        #expect(headers["Cache-Control"] == "no-cache, no-store" && headers["Idempotency-Key"].flatMap(UUID.init) != nil)
        #expect(headers["Accept-Language"] == acceptLanguage.first?.value)
        #expect(headers.count == 4 + acceptLanguage.count)
    }

    @Test func anUpdateThatFailsIsATypedErrorNamingTheBlock() {
        let error = #expect(throws: CourierError.self) {
            try template.updating { ContentType("image/jpeg\r\nX-Injected: 1") }
        }
        #expect(error?.code == .invalidRequest && error?.source == "ContentType")
    }

    @Test func dataIsTheBodyAndATupleGivesItsMediaType() async throws {
        let bytes = Data([0, 1, 2, 255])
        let plain = try Request(template).updating { HTTPMethod.PUT; bytes }
        let sent = try await plain.body?.collect()
        #expect(sent == bytes && plain.headerFields[.contentType] == nil)
        let typed = try template.updating { HTTPMethod.PUT; (bytes, "image/png") }
        #expect(typed.httpBody == bytes && typed.value(forHTTPHeaderField: "Content-Type") == "image/png")
    }

    struct Signature: URLRequestUpdating {
        func updatingUrlRequest(_ request: URLRequest) throws -> URLRequest {
            var request = request
            request.setValue("sig(\(request.httpMethod ?? "")\(request.url?.path ?? ""))", forHTTPHeaderField: "X-Signature")
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
        #expect(Array(request.headerFields) == [HTTPField(name: HTTPField.Name("X-Request-Source")!, value: "widget"),
                                                HTTPField(name: HTTPField.Name("X-Signature")!, value: "sig(DELETE/v1/items)")])
        let bad = #expect(throws: CourierError.self) {
            try Request(template).updating { Header.custom("X-Remove-Me").setValue("1"); BadUpdate() }
        }
        #expect(bad?.code == .invalidRequest && bad?.source?.contains("BadUpdate") == true)
    }

    struct BadUpdate: URLRequestUpdating {
        struct Failure: Error {}
        func updatingUrlRequest(_ request: URLRequest) throws -> URLRequest { throw Failure() }
    }

    @Test func basicAuthorizationTakesTheEnumForm() throws {
        let request = try Request(template).updating { Authorization(.basic(username: "ada", password: "s3cret")) }
        #expect(request.headerFields[.authorization] == "Basic YWRhOnMzY3JldA==")
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
        #expect(urlRequest.curlCommand == """
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
        #expect(form.curlCommand == """
            curl 'https://api.example.com' \\
              -H 'Accept:' \\
              -H 'User-Agent:' \\
              --data-binary 'q=1'
            """)
        #expect(URLRequest(url: URL(string: "relative")!).curlCommand.hasPrefix("# no curl command: "))
    }
}
