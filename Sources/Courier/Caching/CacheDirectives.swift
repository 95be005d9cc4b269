import HTTPTypes

/// The `Cache-Control` directives of a request or a response (RFC 9111 §5.2), read from every
/// `Cache-Control` line; the ones a private cache acts on.
///
/// Unknown directives are ignored, as §5.2.3 asks. A directive given twice keeps its first value;
/// a delta-seconds value that is not a number makes the directive count as present with the
/// strictest reading (`max-age=x` is `max-age=0`), as §4.2.1 asks of invalid freshness.
struct CacheDirectives: Equatable, Sendable {
    var noStore = false
    var noCache = false
    var mustRevalidate = false
    var isPublic = false
    var isPrivate = false
    var onlyIfCached = false
    var maxAge: Int?
    /// `max-stale` with no value accepts any staleness: `Int.max`.
    var maxStale: Int?
    var minFresh: Int?
    var staleWhileRevalidate: Int?
    var staleIfError: Int?

    init() {}

    init(_ fields: HTTPFields) {
        var seen: Set<String> = []
        for value in fields[values: .cacheControl] {
            for directive in Self.split(value) {
                let name = directive.name
                guard seen.insert(name).inserted else { continue }
                let seconds = directive.value.map { Int($0).map { max(0, $0) } ?? 0 }
                switch name {
                case "no-store": noStore = true
                case "no-cache": noCache = true
                case "must-revalidate": mustRevalidate = true
                case "public": isPublic = true
                case "private": isPrivate = true
                case "only-if-cached": onlyIfCached = true
                case "max-age": maxAge = seconds ?? 0
                case "max-stale": maxStale = seconds ?? Int.max
                case "min-fresh": minFresh = seconds ?? 0
                case "stale-while-revalidate": staleWhileRevalidate = seconds ?? 0
                case "stale-if-error": staleIfError = seconds ?? 0
                default: break
                }
            }
        }
    }

    /// `a, b=1, c="x, y"` as lower-cased names with their unquoted values; commas inside quotes
    /// belong to the value.
    static func split(_ value: String) -> [(name: String, value: String?)] {
        var directives: [(name: String, value: String?)] = []
        var current = ""
        var quoted = false
        var escaped = false
        func flush() {
            let text = current.trimmingWhitespace()
            current = ""
            guard !text.isEmpty else { return }
            if let equals = text.firstIndex(of: "=") {
                let name = text[..<equals].trimmingWhitespace().lowercased()
                var argument = text[text.index(after: equals)...].trimmingWhitespace()
                if argument.count >= 2, argument.hasPrefix("\""), argument.hasSuffix("\"") {
                    argument = String(argument.dropFirst().dropLast().filter { $0 != "\\" })
                }
                directives.append((name, argument))
            } else {
                directives.append((text.lowercased(), nil))
            }
        }
        for character in value {
            if escaped {
                escaped = false
            } else if quoted && character == "\\" {
                escaped = true
            } else if character == "\"" {
                quoted.toggle()
            } else if character == ",", !quoted {
                flush()
                continue
            }
            current.append(character)
        }
        flush()
        return directives
    }
}
