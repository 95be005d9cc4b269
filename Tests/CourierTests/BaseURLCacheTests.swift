import Foundation
import Testing

@testable import Courier

/// A `BaseURL` applied to a new draft is looked up by its text after the first time, and the
/// builder's blocks keep the URL as text (`DraftURL.absolute`) until `build()` parses it once.
/// Neither may change a request.
@Suite("BaseURL: the cache and the draft's URL text")
struct BaseURLCacheTests {
    static let bases = [
        "https://api.example.com", "https://api.example.com/", "HTTPS://API.Example.COM/v1/",
        "https://u:p@api.example.com:8443/a/b/c?q=1", "http://[::1]:8080/x", "http://a/b/c/d;p?q",
        "wss://stream.example.com/socket?token=%41", "https://api.example.com/a%20b/",
    ]

    @Test(arguments: bases)
    func aLookedUpBaseGivesWhatParsingGives(base: String) throws {
        var parsed = RequestDraft()
        parsed.url = URLComponents()  // a URL set by hand: the cache does not answer for it
        try BaseURL(base).apply(to: &parsed)
        for _ in 0..<2 {
            var looked = RequestDraft()
            try BaseURL(base).apply(to: &looked)
            #expect(looked.url == parsed.url, "\(base)")
            #expect(looked.urlStorage.isText)
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
        let text = AbsoluteURLText(URLComponents(string: "https://a.example.com")!)!
        for index in 0..<64 { cache.remember(text, for: "https://\(index).example.com") }
        #expect(cache.text(for: "https://0.example.com") != nil)
        cache.remember(text, for: "https://64.example.com")
        #expect(cache.text(for: "https://0.example.com") == nil)
        #expect(cache.text(for: "https://64.example.com") != nil)
    }

    /// Blocks that keep the URL as text, each after `bases`: the same blocks with a block that
    /// reads and sets `draft.url` first must build the same request from components.
    static var textBlocks: [(name: String, blocks: [any RequestBuildable])] {
        [
            ("nothing", []),
            ("absolute path", [Endpoint("/v1/sessions")]),
            ("relative path", [Endpoint("users/42")]),
            ("segments", [PathComponent("users"), PathComponent("a b/c"), PathComponent("..")]),
            ("query", [Query("page", 2), Query("q", "a&b=c d")]),
            ("path then query", [Endpoint("items"), Query("sort", "name")]),
            ("query then path", [Query("page", 2), Endpoint("items")]),
            ("segment on a plain path", [Endpoint("/v2/"), PathComponent("x")]),
        ]
    }

    @Test(arguments: bases)
    func textAndComponentsBuildTheSameURL(base: String) throws {
        for (name, blocks) in Self.textBlocks {
            var text = RequestDraft()
            var components = RequestDraft()
            try BaseURL(base).apply(to: &text)
            try BaseURL(base).apply(to: &components)
            #expect(text.urlStorage.isText, "\(base) \(name)")
            components.url = components.url
            for block in blocks {
                try block.apply(to: &text)
                try block.apply(to: &components)
            }
            // A merged path with an escape is not plain: the general resolution takes it, as components.
            let pathIsPlain = !(URLComponents(string: base)?.percentEncodedPath.contains("%") ?? true)
            #expect(text.urlStorage.isText || !pathIsPlain, "\(base) \(name)")
            #expect(!components.urlStorage.isText)
            #expect(text.url == components.url, "\(base) \(name)")
            let (built, expected) = (try text.build().url, try components.build().url)
            #expect(built == expected, "\(base) \(name)")
            #expect(built.absoluteString == expected.absoluteString, "\(base) \(name)")
        }
    }

    @Test func readingTheURLLeavesTheTextAndSettingItKeepsWhatWasSet() throws {
        var draft = RequestDraft()
        try BaseURL("https://read.example.com/v1/").apply(to: &draft)
        #expect(draft.url.host == "read.example.com")
        #expect(draft.urlStorage.isText)
        draft.url.path = "/other"
        #expect(!draft.urlStorage.isText)
        #expect(try draft.build().url.absoluteString == "https://read.example.com/other")
    }
}

extension DraftURL {
    /// Whether the draft holds its URL as text.
    fileprivate var isText: Bool {
        if case .absolute = self { true } else { false }
    }
}
