import Foundation
import Testing

@testable import Courier

/// `Endpoint`'s shortcut for plain paths must give exactly what RFC 3986 resolution gives.
@Suite("Endpoint: the plain-path shortcut")
struct PlainPathResolutionTests {
    static let bases = [
        "https://api.example.com", "https://api.example.com/", "https://api.example.com/v1",
        "https://api.example.com/v1/", "https://u:p@api.example.com:8443/a/b/c?q=1", "http://a/b/c/d;p?q",
    ]
    static let references = [
        "/v1/sessions", "users/42", "g", "g/", "/g", "a/b/c", "x:y", "./g", "../g", "g/..", ".",
        "..", "...", "a/.../b", "//cdn.example.com/x", "/a b", "%41", "g?y", "g#s", "", "/", "a//b",
        "@x", "a:b/c", "a/b:c", ";x",
    ]

    @Test(arguments: bases)
    func theShortcutAgreesWithRFC3986ResolutionOrStepsAside(base: String) throws {
        for reference in Self.references {
            var shortcut = RequestDraft()
            try BaseURL(base).apply(to: &shortcut)
            var general = shortcut
            let taken = shortcut.resolvePlainPath(reference)
            let parsed = try URIReference(checking: reference, block: "Endpoint")
            guard parsed.scheme == nil || parsed.scheme == "https" || parsed.scheme == "http" else {
                #expect(!taken, "\(reference) has a scheme and must not take the shortcut")
                continue
            }
            try general.setURL(parsed.resolved(against: general.uriReference, strict: false), block: "Endpoint")
            if taken {
                #expect(shortcut.url.string == general.url.string, "\(base) + \(reference)")
            }
        }
    }

    @Test func plainPathsTakeTheShortcutAndOthersDoNot() throws {
        var draft = RequestDraft()
        try BaseURL("https://api.example.com/v1/").apply(to: &draft)
        for plain in ["/v1/sessions", "users/42", "a/.../b", "b/a:c"] {
            var copy = draft
            let taken = copy.resolvePlainPath(plain)
            #expect(taken, "\(plain)")
        }
        for other in ["./g", "../g", "g/..", "//cdn.example.com/x", "/a b", "%41", "g?y", "", "x:y", "a:b/c"] {
            var copy = draft
            let taken = copy.resolvePlainPath(other)
            #expect(!taken, "\(other)")
        }
        var relativeDraft = RequestDraft()
        let taken = relativeDraft.resolvePlainPath("/v1")
        #expect(!taken, "no base URL yet: the general path keeps the reference relative")
    }
}
