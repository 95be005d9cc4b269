/// A URI reference split into its five components (RFC 3986 §3), resolved and recomposed as strings.
///
/// Parsing follows the regular expression of RFC 3986 Appendix B, so it never fails and never
/// normalizes: components keep their case and percent-encoding, and `%2E` is not a dot segment.
/// Foundation's `URL` is not used because it rewrites some references and traps on others.
/// Checking that a component is well formed is the caller's job (`BaseURL`, `Endpoint`).
package struct URIReference: Hashable, Sendable {
    /// The scheme without its `:`, as written; `nil` for a relative reference.
    package var scheme: String?
    /// The authority without its `//`; `nil` when absent, `""` for `file:///x`.
    package var authority: String?
    /// The path, possibly empty; never `nil` (RFC 3986 §3.3).
    package var path: String
    /// The query without its `?`; `nil` when absent, `""` for a bare `?`.
    package var query: String?
    /// The fragment without its `#`; `nil` when absent.
    package var fragment: String?

    /// Creates a reference from its components, taken as they are.
    init(
        scheme: String? = nil, authority: String? = nil, path: String = "", query: String? = nil,
        fragment: String? = nil
    ) {
        self.scheme = scheme
        self.authority = authority
        self.path = path
        self.query = query
        self.fragment = fragment
    }

    /// Splits `string` as `^(([^:/?#]+):)?(//([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?` does (Appendix B).
    package init(parsing string: String) {
        // Delimiters are ASCII, so their UTF-8 positions are valid string indices: searching bytes
        // is the regular expression's character search without the cost of grapheme breaking.
        var rest = Substring(string)
        if let hash = rest.utf8.firstIndex(of: UInt8(ascii: "#")) {
            fragment = String(rest[rest.utf8.index(after: hash)...])
            rest = rest[..<hash]
        }
        if let question = rest.utf8.firstIndex(of: UInt8(ascii: "?")) {
            query = String(rest[rest.utf8.index(after: question)...])
            rest = rest[..<question]
        }
        if let colon = rest.utf8.firstIndex(where: { $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: "/") }),
            rest.utf8[colon] == UInt8(ascii: ":"), colon != rest.startIndex
        {
            scheme = String(rest[..<colon])
            rest = rest[rest.utf8.index(after: colon)...]
        }
        if rest.utf8.starts(with: "//".utf8) {
            let start = rest.utf8.index(rest.startIndex, offsetBy: 2)
            let end = rest.utf8[start...].firstIndex(of: UInt8(ascii: "/")) ?? rest.endIndex
            authority = String(rest[start..<end])
            rest = rest[end...]
        }
        path = String(rest)
    }

    /// The reference written back as a string (RFC 3986 §5.3).
    package var string: String {
        var result = ""
        if let scheme { result += scheme + ":" }
        if let authority { result += "//" + authority }
        result += path
        if let query { result += "?" + query }
        if let fragment { result += "#" + fragment }
        return result
    }

    /// The target URI of this reference resolved against the absolute URI `base` (RFC 3986 §5.2.2).
    ///
    /// With `strict` false, a reference whose scheme equals the base's is read as if it had none
    /// (`http:g` is `g`), the backward-compatible reading §5.2.2 allows and Python's `urljoin` uses.
    func resolved(against base: URIReference, strict: Bool = true) -> URIReference {
        var reference = self
        if !strict, let scheme = reference.scheme, let baseScheme = base.scheme,
            scheme.lowercased() == baseScheme.lowercased()
        {
            reference.scheme = nil
        }
        if reference.scheme != nil {
            reference.path = Self.removeDotSegments(reference.path)
            return reference
        }
        var target = reference.resolvingPathAndQuery(against: base, relative: false)
        target.scheme = base.scheme
        return target
    }

    /// This reference resolved against `base`, itself a relative reference (no scheme).
    ///
    /// `..` segments that climb above `base` are kept, so resolving the result against an absolute
    /// URI later gives the same target as resolving `base` and then this reference in turn. This is
    /// how an `Endpoint` declared before its `BaseURL` waits for it.
    func resolved(againstRelative base: URIReference) -> URIReference {
        guard scheme == nil else { return resolved(against: base) }
        return resolvingPathAndQuery(against: base, relative: true)
    }

    /// Steps of §5.2.2 after the scheme: authority, path and query; the fragment is this reference's.
    ///
    /// When `relative`, a merged path that is still relative keeps the `..` that climb above it.
    private func resolvingPathAndQuery(against base: URIReference, relative: Bool) -> URIReference {
        var target = URIReference(fragment: fragment)
        if let authority {
            target.authority = authority
            target.path = Self.removeDotSegments(path)
            target.query = query
            return target
        }
        target.authority = base.authority
        if path.isEmpty {
            target.path = base.path
            target.query = query ?? base.query
        } else {
            if path.hasPrefix("/") {
                target.path = Self.removeDotSegments(path)
            } else if relative && base.authority == nil && !base.path.hasPrefix("/") {
                let directory = Self.removeRelativeDotSegments(base.path)
                target.path = Self.removeRelativeDotSegments(
                    Self.merge(basePath: directory, baseHasAuthority: false, with: path))
            } else {
                target.path = Self.removeDotSegments(
                    Self.merge(basePath: base.path, baseHasAuthority: base.authority != nil, with: path))
            }
            target.query = query
        }
        return target
    }

    /// Merges a relative-path reference with the base path (RFC 3986 §5.2.3).
    static func merge(basePath: String, baseHasAuthority: Bool, with path: String) -> String {
        if baseHasAuthority && basePath.isEmpty { return "/" + path }
        guard let slash = basePath.utf8.lastIndex(of: UInt8(ascii: "/")) else { return path }
        return basePath[...slash] + path
    }

    /// Interprets and removes the `.` and `..` segments of a path (RFC 3986 §5.2.4); also what
    /// `courier` does to a URL's path unless `--path-as-is`.
    package static func removeDotSegments(_ path: String) -> String {
        var input = Substring(path)
        var output = ""
        while !input.isEmpty {
            if input.hasPrefix("../") {
                input = input.dropFirst(3)
            } else if input.hasPrefix("./") {
                input = input.dropFirst(2)
            } else if input.hasPrefix("/./") {
                input = input.dropFirst(2)
            } else if input == "/." {
                input = "/"
            } else if input.hasPrefix("/../") {
                input = input.dropFirst(3)
                removeLastSegment(of: &output)
            } else if input == "/.." {
                input = "/"
                removeLastSegment(of: &output)
            } else if input == "." || input == ".." {
                input = ""
            } else {
                let searchStart = input.hasPrefix("/") ? input.index(after: input.startIndex) : input.startIndex
                let end = input[searchStart...].firstIndex(of: "/") ?? input.endIndex
                output += input[..<end]
                input = input[end...]
            }
        }
        return output
    }

    /// Removes the last `/` of `output` and everything after it (step 2C of §5.2.4).
    private static func removeLastSegment(of output: inout String) {
        if let slash = output.lastIndex(of: "/") {
            output.removeSubrange(slash...)
        } else {
            output = ""
        }
    }

    /// Normalizes a relative path (one that does not start with `/`) without a base to climb.
    ///
    /// `.` segments go, `a/..` pairs cancel, and the `..` left over are kept at the front. A path
    /// ending in `.` or `..` names a directory, so it keeps a trailing `/`. A result whose first
    /// segment is empty or holds a `:` is written `./…` so that it still reads as a relative path.
    static func removeRelativeDotSegments(_ path: String) -> String {
        guard !path.isEmpty else { return "" }
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        var output: [Substring] = []
        for segment in segments {
            switch segment {
            case ".":
                continue
            case "..":
                if let last = output.last, last != ".." { output.removeLast() } else { output.append("..") }
            default:
                output.append(segment)
            }
        }
        if let last = segments.last, last == "." || last == ".." { output.append("") }
        guard let first = output.first else { return "" }
        if output == [""] { return "./" }
        if first.isEmpty || first.contains(":") { output.insert(".", at: 0) }
        return output.joined(separator: "/")
    }
}

extension URIReference {
    /// An authority split into its parts (RFC 3986 §3.2): `userinfo@host:port`.
    struct Authority: Hashable, Sendable {
        /// The text before the last `@`, if any.
        var userinfo: String?
        /// The host as written; an IP literal keeps its brackets (`[::1]`).
        var host: String
        /// The digits after the host's `:`; `nil` when there is no `:`, `""` for an empty port.
        var port: String?

        /// Splits `authority`; `nil` when an IP literal has no closing `]` or text follows it other than `:port`.
        init?(parsing authority: String) {
            var rest = Substring(authority)
            if let at = rest.utf8.lastIndex(of: UInt8(ascii: "@")) {
                userinfo = String(rest[..<at])
                rest = rest[rest.utf8.index(after: at)...]
            }
            if rest.utf8.first == UInt8(ascii: "[") {
                guard let close = rest.utf8.firstIndex(of: UInt8(ascii: "]")) else { return nil }
                let afterHost = rest.utf8.index(after: close)
                host = String(rest[..<afterHost])
                let tail = rest[afterHost...]
                if tail.isEmpty { return }
                guard tail.utf8.first == UInt8(ascii: ":") else { return nil }
                port = String(tail.dropFirst())
            } else if let colon = rest.utf8.firstIndex(of: UInt8(ascii: ":")) {
                host = String(rest[..<colon])
                port = String(rest[rest.utf8.index(after: colon)...])
            } else {
                host = String(rest)
            }
        }
    }
}
