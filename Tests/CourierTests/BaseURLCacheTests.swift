import Foundation
import Testing

@testable import Courier

/// A `BaseURL` applied to a new draft is looked up by its text after the first time; what the
/// draft knows of its URL (`urlShape`) lets `Endpoint` and `build()` skip asking `URLComponents`.
/// Neither may change a request.
@Suite("BaseURL: the cache and the draft's URL shape")
struct BaseURLCacheTests {
    static let bases = [
        "https://api.example.com", "https://api.example.com/", "HTTPS://API.Example.COM/v1/",
        "https://u:p@api.example.com:8443/a/b/c?q=1", "http://[::1]:8080/x", "http://a/b/c/d;p?q",
        "wss://stream.example.com/socket?token=%41", "https://api.example.com/a%20b/",
    ]

    @Test(arguments: bases)
    func aLookedUpBaseGivesWhatParsingGives(base: String) throws {
        var parsed = RequestDraft()
        parsed.urlShape = .unknown  // an empty URL the cache does not answer for
        try BaseURL(base).apply(to: &parsed)
        for _ in 0..<2 {
            var looked = RequestDraft()
            try BaseURL(base).apply(to: &looked)
            #expect(looked.url == parsed.url, "\(base)")
            #expect(looked.urlShape == .absolute)
        }
    }

    @Test func requestsBuiltAgainstOneBaseKeepTheirOwnPaths() throws {
        let urls = try ["/v1/sessions", "users/42", "../up", "?page=2"].map { reference in
            try Request {
                BaseURL("https://cache.example.com/v1/")
                Endpoint(reference)
            }.url.absoluteString
        }
        #expect(
            urls == [
                "https://cache.example.com/v1/sessions", "https://cache.example.com/v1/users/42",
                "https://cache.example.com/up", "https://cache.example.com/v1/?page=2",
            ])
    }

    @Test func anInvalidBaseFailsEveryTime() {
        for _ in 0..<3 {
            #expect {
                try Request { BaseURL("https://exa mple.com") }
            } throws: { error in
                (error as? CourierError)?.code == .invalidRequest && (error as? CourierError)?.source == "BaseURL"
            }
        }
    }

    @Test func anEndpointDeclaredFirstIsStillResolvedAgainstTheBase() throws {
        for _ in 0..<2 {
            let request = try Request {
                Endpoint("users")
                BaseURL("https://order.example.com/v1/")
            }
            #expect(request.url.absoluteString == "https://order.example.com/v1/users")
        }
    }

    /// A block of the user's own that edits `draft.url` directly.
    struct EditURL: RequestBuildable {
        let edit: @Sendable (inout URLComponents) -> Void
        func apply(to draft: inout RequestDraft) throws { edit(&draft.url) }
    }

    @Test func aBlockThatEditsTheURLIsHonouredByEndpointAndBuild() throws {
        let moved = try Request {
            BaseURL("https://shape.example.com/v1/")
            EditURL { $0.host = "other.example.com" }
            Endpoint("users")
        }
        #expect(moved.url.absoluteString == "https://other.example.com/v1/users")

        #expect {
            try Request {
                BaseURL("https://shape.example.com/v1/")
                EditURL { $0.host = nil }
                Endpoint("users")
            }
        } throws: { error in
            (error as? CourierError)?.code == .invalidRequest
        }
    }

    @Test func aFullCacheStartsAgainRatherThanGrowing() {
        let cache = BaseURLCache()
        let components = URLComponents(string: "https://a.example.com")!
        for index in 0..<64 { cache.remember(components, for: "https://\(index).example.com") }
        #expect(cache.components(for: "https://0.example.com") != nil)
        cache.remember(components, for: "https://64.example.com")
        #expect(cache.components(for: "https://0.example.com") == nil)
        #expect(cache.components(for: "https://64.example.com") != nil)
    }
}
