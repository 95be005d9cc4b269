import Courier
import Foundation

/// Squashes a URL path's `.` and `..` segments (RFC 3986 §5.2.4), as HTTPie does unless
/// `--path-as-is` is given: `example.org/a/../../etc/passwd` asks for `/etc/passwd`.
///
/// The CLI does it itself rather than leave it to the transport, since libcurl squashes them and
/// AsyncHTTPClient does not: this way both send the same path, and `--offline` prints that path.
/// The removal is the builder's own (`URIReference.removeDotSegments`).
enum DotSegments {
    /// `url` with its path's dot segments removed; a URL without any, or that cannot be parsed
    /// (the builder reports that), is returned unchanged.
    static func removed(from url: String) -> String {
        guard var components = URLComponents(string: url) else { return url }
        let path = components.percentEncodedPath
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        guard segments.contains(where: { $0 == "." || $0 == ".." }) else { return url }
        components.percentEncodedPath = URIReference.removeDotSegments(path)
        return components.string ?? url
    }
}
