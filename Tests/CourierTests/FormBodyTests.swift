import Courier
import Foundation
import HTTPTypes
import Testing

@Suite("Form queries and bodies")
struct FormBodyTests {
    struct Filter: Encodable, Sendable {
        var query = "swift & c++"
        var status: String? = "open"
        var cursor: String? = nil
        var tags = ["a", "b"]
        var range = Range()
    }

    struct Range: Encodable, Sendable {
        var from = 1
        var to = 9
    }

    struct Signup: Encodable, Sendable {
        var userName = "Ada L"
        var acceptsTerms = true
        var interests = ["math", "engines"]
    }

    private func draft() -> RequestDraft {
        var draft = RequestDraft()
        draft.url = URLComponents(string: "https://example.com/search")!
        return draft
    }

    @Test func queryFromEncodableFlattensIntoTheURL() throws {
        var draft = draft()
        try Query(Filter()).apply(to: &draft)
        let request = try draft.build()
        #expect(
            request.url.absoluteString
                == "https://example.com/search?query=swift%20%26%20c%2B%2B&status=open&tags=a&tags=b&range%5Bfrom%5D=1&range%5Bto%5D=9"
        )
    }

    @Test func queryFromEncodableAppendsAfterEarlierItems() throws {
        var draft = draft()
        try Query("page", 2).apply(to: &draft)
        try Query(Range()).apply(to: &draft)
        try Query(flag: "debug").apply(to: &draft)
        #expect(try draft.build().url.absoluteString == "https://example.com/search?page=2&from=1&to=9&debug")
    }

    @Test func queryUsesTheFormEncoderDeclaredBeforeIt() throws {
        var draft = draft()
        try FormCoding(encoder: URLFormEncoder(arrayEncoding: .indexed, keyEncoding: .convertToSnakeCase)).apply(
            to: &draft)
        try Query(Signup()).apply(to: &draft)
        #expect(
            try draft.build().url.absoluteString
                == "https://example.com/search?user_name=Ada%20L&accepts_terms=true&interests%5B0%5D=math&interests%5B1%5D=engines"
        )
    }

    @Test func queryWithANonObjectValueFailsNamingQuery() throws {
        var draft = draft()
        let error = #expect(throws: CourierError.self) { try Query(["a", "b"]).apply(to: &draft) }
        #expect(error?.code == .encodingFailed)
        #expect(error?.source == "Query")
    }

    @Test func urlEncodedItemsUseFormEncodingAndContentType() async throws {
        var draft = draft()
        let items = [
            URLQueryItem(name: "name", value: "Ada Lovelace"),
            URLQueryItem(name: "note", value: "a&b=c+d#e%f~"),
            URLQueryItem(name: "city", value: "Zürich 🚀"),
            URLQueryItem(name: "empty", value: nil),
        ]
        try RequestBody.urlEncoded(items).apply(to: &draft)
        let request = try draft.build()
        #expect(request.headerFields[.contentType] == "application/x-www-form-urlencoded")
        let body = try #require(request.body)
        let text = "name=Ada+Lovelace&note=a%26b%3Dc%2Bd%23e%25f%7E&city=Z%C3%BCrich+%F0%9F%9A%80&empty="
        #expect(try await body.collect() == Data(text.utf8))
        #expect(body.contentLength == Int64(text.utf8.count))
    }

    @Test func urlEncodedEncodableIsEncodedAtBuildTime() async throws {
        var draft = draft()
        try RequestBody.urlEncoded(Signup()).apply(to: &draft)
        let request = try draft.build()
        #expect(request.headerFields[.contentType] == "application/x-www-form-urlencoded")
        let body = try #require(request.body)
        #expect(
            try await body.collect() == Data("userName=Ada+L&acceptsTerms=true&interests=math&interests=engines".utf8))
    }

    @Test func urlEncodedBodySeesFormCodingDeclaredAfterIt() async throws {
        var draft = draft()
        try RequestBody.urlEncoded(Signup()).apply(to: &draft)
        try FormCoding(
            encoder: URLFormEncoder(
                arrayEncoding: .brackets, boolEncoding: .numeric,
                keyEncoding: .convertToSnakeCase)
        ).apply(to: &draft)
        let body = try #require(try draft.build().body)
        #expect(
            try await body.collect()
                == Data("user_name=Ada+L&accepts_terms=1&interests%5B%5D=math&interests%5B%5D=engines".utf8))
    }

    @Test func urlEncodedNonObjectFailsTheBuildNamingTheBody() throws {
        var draft = draft()
        try RequestBody.urlEncoded(42).apply(to: &draft)
        let error = #expect(throws: CourierError.self) { try draft.build() }
        #expect(error?.code == .encodingFailed)
        #expect(error?.source == "RequestBody.urlEncoded")
    }

    @Test func explicitContentTypeIsKept() throws {
        var draft = draft()
        draft.headerFields[.contentType] = "application/x-www-form-urlencoded; charset=utf-8"
        try RequestBody.urlEncoded([URLQueryItem(name: "a", value: "1")]).apply(to: &draft)
        #expect(try draft.build().headerFields[.contentType] == "application/x-www-form-urlencoded; charset=utf-8")
    }
}
