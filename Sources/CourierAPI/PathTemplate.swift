import Foundation

/// Placeholders in endpoint paths: `{name}` (Netrofit, Retrofit) and `:name` (Papyrus).
enum PathTemplate {
    /// What a path segment may hold unescaped (RFC 3986 `pchar`), so a value never adds a `/`, `?` or `#`.
    static let segmentAllowed: CharacterSet = {
        var set = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
        set.insert(charactersIn: "!$&'()*+,;=:@")
        return set
    }()

    static func encodeSegment(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: segmentAllowed) ?? value
    }

    /// `path` with every `{name}` and `:name` (ending at `/`, `?`, `.` or the end) replaced by `value`.
    static func replacing(_ name: String, in path: String, with value: String) -> String {
        var result = path.replacingOccurrences(of: "{\(name)}", with: value)
        var searchStart = result.startIndex
        while let range = result.range(of: ":\(name)", range: searchStart..<result.endIndex) {
            let after = range.upperBound
            let endsName =
                after == result.endIndex || !(result[after].isLetter || result[after].isNumber || result[after] == "_")
            let startsSegment =
                range.lowerBound == result.startIndex || result[result.index(before: range.lowerBound)] == "/"
            if endsName && startsSegment {
                result.replaceSubrange(range, with: value)
                searchStart = result.index(range.lowerBound, offsetBy: value.count)
            } else {
                searchStart = after
            }
        }
        return result
    }
}
