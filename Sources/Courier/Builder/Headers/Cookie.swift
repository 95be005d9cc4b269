import HTTPTypes

/// Adds a cookie; several `Cookie` blocks accumulate into the single `Cookie` line RFC 6265 requires (`a=1; b=2`).
///
/// Names must be tokens and values cookie-octets (RFC 6265 §4.1.1); anything else fails the build
/// rather than being silently altered. Percent-encode a value yourself if your server expects it.
public struct Cookie: RequestBuildable, Sendable {
    /// The cookie name.
    public let name: String
    /// The cookie value.
    public let value: String

    /// Adds the cookie `name=value`.
    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }

    public func apply(to draft: inout RequestDraft) throws {
        guard !name.isEmpty, name.utf8.allSatisfy(HTTPToken.isTokenByte) else {
            throw CourierError.invalidRequest("\"\(name.debugEscaped)\" is not a valid cookie name", block: "Cookie")
        }
        var octets = Substring(value)
        if octets.count >= 2, octets.first == "\"", octets.last == "\"" { octets = octets.dropFirst().dropLast() }
        guard octets.utf8.allSatisfy(Self.isCookieOctet) else {
            throw CourierError.invalidRequest(
                "the value of cookie \(name) contains a character cookies cannot carry (space, quote, comma, semicolon, backslash or control)",
                block: "Cookie")
        }
        try draft.addHeader(.cookie, "\(name)=\(value)", separator: "; ", block: "Cookie")
    }

    /// RFC 6265 cookie-octet: printable ASCII except space, `"`, `,`, `;` and `\`.
    private static func isCookieOctet(_ byte: UInt8) -> Bool {
        byte == 0x21 || (0x23...0x2B).contains(byte) || (0x2D...0x3A).contains(byte)
            || (0x3C...0x5B).contains(byte) || (0x5D...0x7E).contains(byte)
    }
}
