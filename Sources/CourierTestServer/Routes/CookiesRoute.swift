import Foundation

extension Route {
    /// `/cookies`, any method: `{"cookies": {name: value, …}}`, the cookies the request carried,
    /// from every `Cookie` header; when a name repeats, the first value wins (as the most
    /// specific cookie comes first, RFC 6265 §5.4).
    public static let cookies = Route("/cookies") { request in
        var cookies: [String: String] = [:]
        for header in request.headers where header.name.caseInsensitiveCompare("cookie") == .orderedSame {
            for pair in header.value.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let name = parts[0].trimmingCharacters(in: .whitespaces)
                guard !name.isEmpty, cookies[name] == nil else { continue }
                cookies[name] = parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : ""
            }
        }
        return try .json(["cookies": cookies])
    }
}
