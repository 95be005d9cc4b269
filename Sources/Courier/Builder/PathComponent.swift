#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One path segment appended to the URL's path; a bare `String` in a builder is this block.
///
/// The text is percent-encoded as a single segment, so `"a/b"` stays one segment (`a%2Fb`)
/// and user input cannot climb the path with `..`. Declared before any `BaseURL`, the path
/// stays relative (`users`), so `"users"` then `BaseURL("https://h/v1/")` gives `/v1/users`.
public struct PathComponent: RequestBuildable {
    /// The segment as written, before encoding.
    public let segment: String

    /// Appends `segment` to the path.
    public init(_ segment: String) { self.segment = segment }

    public func apply(to draft: inout RequestDraft) throws {
        let encoded: String
        switch segment {
        case ".": encoded = "%2E"
        case "..": encoded = "%2E%2E"
        default: encoded = PercentEncoding.encode(segment, allowing: PercentEncoding.pathSegment)
        }
        if case .absolute(var text) = draft.urlStorage {
            text.path = Self.appending(encoded, to: text.path)
            draft.urlStorage = .absolute(text)
            return
        }
        let path = draft.url.percentEncodedPath
        let staysRelative = path.isEmpty && draft.url.percentEncodedHost == nil
        if staysRelative {
            draft.url.percentEncodedPath = encoded.replacing(":", with: "%3A")
            return
        }
        draft.url.percentEncodedPath = Self.appending(encoded, to: path)
    }

    /// `path` with one more segment, after a `/` unless it ends with one.
    private static func appending(_ segment: String, to path: String) -> String {
        path.hasSuffix("/") ? path + segment : path + "/" + segment
    }
}
