import Foundation

/// Expands the URL shorthands HTTPie accepts into a full URL.
///
/// - `:8080/path` is `http://127.0.0.1:8080/path`, `:/path` is `http://127.0.0.1/path` (port 80),
///   and `:` alone is `http://127.0.0.1/`;
/// - a URL without a scheme (`example.org/x`, `localhost:3000`) gets `http://`
///   (or `defaultScheme`);
/// - anything with a scheme (`https://…`) is left as it is.
public enum URLShorthand {
    /// The full URL `argument` stands for.
    public static func expand(_ argument: String, defaultScheme: String = "http") -> String {
        if argument.hasPrefix(":") {
            let rest = argument.dropFirst()
            let port = rest.prefix(while: \.isASCIIDigit)
            var path = rest.dropFirst(port.count)
            if path.isEmpty { path = "/" }
            return "\(defaultScheme)://127.0.0.1" + (port.isEmpty ? "" : ":\(port)") + (path.hasPrefix("/") ? "" : "/")
                + path
        }
        return hasScheme(argument) ? argument : "\(defaultScheme)://" + argument
    }

    /// Whether `argument` starts with `scheme://`, RFC 3986's scheme characters before it.
    static func hasScheme(_ argument: String) -> Bool {
        guard let marker = argument.range(of: "://") else { return false }
        let scheme = argument[..<marker.lowerBound]
        guard let first = scheme.first, first.isASCII, first.isLetter else { return false }
        return scheme.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }
    }
}

extension Character {
    /// Whether the character is one of `0`…`9`.
    var isASCIIDigit: Bool { isASCII && isNumber }
}
