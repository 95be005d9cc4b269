#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension RequestDraft {
    /// Resolves the most common `Endpoint`, a plain path such as `"/v1/sessions"` or `"users/42"`,
    /// against an absolute URL without the general RFC 3986 machinery; `false` leaves the
    /// reference to it. The result is the one §5.2 gives: a path starting with `/` replaces the
    /// path, another is merged after the base path's last `/`, and the query is dropped.
    ///
    /// Plain means: only characters a path keeps as they are (no `%`, `?`, `#`, space…), no `.` or
    /// `..` segment in the reference or the merged path, no `//` start, and no `:` before the
    /// first `/` of a relative path (that would be a scheme).
    mutating func resolvePlainPath(_ reference: String) -> Bool {
        guard Self.isPlainPath(reference) else { return false }
        let basePath: String
        switch urlStorage {
        case .absolute(let text):
            basePath = text.path
        case .components(let components) where components.scheme != nil && components.percentEncodedHost != nil:
            basePath = components.percentEncodedPath
        case .unset, .components:
            return false
        }
        let path: String
        if reference.utf8.first == UInt8(ascii: "/") {
            path = reference
        } else {
            guard !reference.utf8.prefix(while: { $0 != UInt8(ascii: "/") }).contains(UInt8(ascii: ":")) else {
                return false
            }
            if let lastSlash = basePath.utf8.lastIndex(of: UInt8(ascii: "/")) {
                path = String(basePath[...lastSlash]) + reference
                guard Self.isPlainPath(path) else { return false }
            } else {
                path = "/" + reference
            }
        }
        switch urlStorage {
        case .absolute(var text):
            text.path = path
            text.query = nil
            urlStorage = .absolute(text)
        case .unset, .components:
            url.percentEncodedPath = path
            url.percentEncodedQuery = nil
        }
        return true
    }

    /// Non-empty, made of path characters only, not starting with `//`, and without dot segments.
    private static func isPlainPath(_ text: String) -> Bool {
        guard !text.isEmpty, !text.utf8.starts(with: "//".utf8) else { return false }
        let allowed = URIReference.pathAllowed
        var segmentLength = 0
        var segmentIsDots = true
        for byte in text.utf8 {
            guard allowed.contains(byte) else { return false }
            if byte == UInt8(ascii: "/") {
                if segmentIsDots, segmentLength == 1 || segmentLength == 2 { return false }
                segmentLength = 0
                segmentIsDots = true
            } else {
                segmentLength += 1
                if byte != UInt8(ascii: ".") { segmentIsDots = false }
            }
        }
        return !(segmentIsDots && (segmentLength == 1 || segmentLength == 2))
    }
}
