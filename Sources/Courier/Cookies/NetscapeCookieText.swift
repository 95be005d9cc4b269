#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// The Netscape cookie format curl's `-b`/`-c` and wget use: one cookie a line, seven fields
/// separated by tabs (domain, include subdomains, path, secure, expiry in Unix seconds or 0 for a
/// session cookie, name, value), `#HttpOnly_` before the domain of an HTTP-only cookie.
///
/// A file is read leniently, as curl reads it (a line that is not a cookie is skipped); text a
/// program hands over is read strictly (``cookies(in:now:)`` names the first bad line), so a
/// cookie it meant to set is never silently lost.
public enum NetscapeCookieText {
    /// Why a line of cookie text was refused.
    public struct MalformedLine: Error, Sendable, Hashable, CustomStringConvertible {
        /// The line's number, from 1.
        public var line: Int
        /// What is wrong with it.
        public var reason: String

        public var description: String { "cookie line \(line): \(reason)" }
    }

    /// `cookies` in the format, after a header comment; each line ends in a newline.
    public static func text(of cookies: [StoredCookie]) -> String {
        var lines = [
            "# Netscape HTTP Cookie File", "# Written by Courier; one cookie a line, fields separated by tabs.", "",
        ]
        for cookie in cookies {
            let domain = (cookie.isHTTPOnly ? "#HttpOnly_" : "") + (cookie.isHostOnly ? "" : ".") + cookie.domain
            let expires = cookie.expires.map { String(Int64($0.timeIntervalSince1970)) } ?? "0"
            lines.append(
                [
                    domain, cookie.isHostOnly ? "FALSE" : "TRUE", cookie.path, cookie.isSecure ? "TRUE" : "FALSE",
                    expires, cookie.name, cookie.value,
                ].joined(separator: "\t"))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The cookies of `text`, expired ones included (a jar drops them); comments and blank lines
    /// are skipped. Throws ``MalformedLine`` for the first other line that is not a valid cookie.
    public static func cookies(in text: String, now: Date = Date()) throws -> [StoredCookie] {
        var cookies: [StoredCookie] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            switch parse(line.hasSuffix("\r") ? line.dropLast() : line, now: now) {
            case .cookie(let cookie): cookies.append(cookie)
            case .skipped: continue
            case .malformed(let reason): throw MalformedLine(line: index + 1, reason: reason)
            }
        }
        return cookies
    }

    /// The cookies of `text`, skipping every line that is not one, as curl reads a cookie file.
    public static func cookiesSkippingMalformedLines(in text: String, now: Date = Date()) -> [StoredCookie] {
        text.split(whereSeparator: \.isNewline).compactMap { line in
            if case .cookie(let cookie) = parse(line, now: now) { return cookie }
            return nil
        }
    }

    private enum ParsedLine {
        case cookie(StoredCookie)
        case skipped
        case malformed(String)
    }

    private static func parse(_ line: Substring, now: Date) -> ParsedLine {
        var line = line
        var isHTTPOnly = false
        if line.hasPrefix("#HttpOnly_") {
            isHTTPOnly = true
            line = line.dropFirst("#HttpOnly_".count)
        } else if line.hasPrefix("#") || line.allSatisfy({ $0 == " " || $0 == "\t" }) {
            return .skipped
        }
        let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        guard fields.count == 7 else { return .malformed("\(fields.count) tab-separated fields, not 7") }
        guard let seconds = Int64(fields[4]), seconds >= 0 else {
            return .malformed("the expiry \(TerminalSafeText.escaping(fields[4])) is not a count of seconds")
        }
        var domain = fields[0]
        if domain.hasPrefix(".") { domain.removeFirst() }
        guard !domain.isEmpty, domain.allSatisfy(isDomainCharacter) else {
            return .malformed("the domain \(TerminalSafeText.escaping(fields[0])) is not a host name")
        }
        guard fields[2].hasPrefix("/"), !fields[2].contains(where: isForbidden) else {
            return .malformed(
                "the path \(TerminalSafeText.escaping(fields[2])) does not start with / or holds a control character or ;"
            )
        }
        guard !fields[5].isEmpty, !fields[5].contains(where: { isForbidden($0) || $0 == "=" || $0 == " " }) else {
            return .malformed(
                "the name \(TerminalSafeText.escaping(fields[5])) is empty or holds =, a space, ; or a control character"
            )
        }
        guard !fields[6].contains(where: isForbidden) else {
            return .malformed("the value of \(fields[5]) holds ; or a control character")
        }
        return .cookie(
            StoredCookie(
                name: fields[5], value: fields[6], domain: domain, isHostOnly: fields[1] != "TRUE", path: fields[2],
                isSecure: fields[3] == "TRUE", isHTTPOnly: isHTTPOnly,
                expires: seconds == 0 ? nil : Date(timeIntervalSince1970: TimeInterval(seconds)), created: now))
    }

    /// Characters a cookie's path, name or value may not hold: they would end or split the
    /// `Cookie` field, or smuggle a header line.
    private static func isForbidden(_ character: Character) -> Bool {
        character == ";" || character.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
    }

    private static func isDomainCharacter(_ character: Character) -> Bool {
        character.isASCII
            && (character.isLetter || character.isNumber || character == "-" || character == "."
                || character == ":" || character == "[" || character == "]" || character == "_")
    }
}
