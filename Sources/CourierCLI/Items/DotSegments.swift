import Foundation

/// Squashes a URL path's `.` and `..` segments (RFC 3986 §5.2.4), as HTTPie does unless
/// `--path-as-is` is given: `example.org/a/../../etc/passwd` asks for `/etc/passwd`.
///
/// The CLI does it itself rather than leave it to the transport, since libcurl squashes them and
/// AsyncHTTPClient does not: this way both send the same path, and `--offline` prints that path.
enum DotSegments {
    /// `url` with its path's dot segments removed; a URL without any, or that cannot be parsed
    /// (the builder reports that), is returned unchanged.
    static func removed(from url: String) -> String {
        guard var components = URLComponents(string: url) else { return url }
        let path = components.percentEncodedPath
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        guard segments.contains(where: { $0 == "." || $0 == ".." }) else { return url }
        components.percentEncodedPath = removed(segments)
        return components.string ?? url
    }

    /// The segments joined again without `.`, and with each `..` taking away the one before it;
    /// a `..` at the root stays at the root. A trailing dot segment leaves the path ending in `/`.
    private static func removed(_ segments: [Substring]) -> String {
        var output: [Substring] = []
        for (index, segment) in segments.enumerated() {
            let isLast = index == segments.count - 1
            switch segment {
            case ".":
                if isLast { output.append("") }
            case "..":
                if output.count > 1 || (output.count == 1 && output[0] != "") { output.removeLast() }
                if isLast { output.append("") }
            default:
                output.append(segment)
            }
        }
        let joined = output.joined(separator: "/")
        return segments.first == "" && !joined.hasPrefix("/") ? "/" + joined : joined
    }
}
