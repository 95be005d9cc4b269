#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Formats and checks `Authorization` field values for the standard schemes.
enum Credentials {
    /// `Bearer <token>`; the token must match RFC 6750 §2.1 `b64token`.
    static func bearer(_ token: String, block: String) -> Result<String, CourierError> {
        guard isB64Token(token) else {
            return .failure(
                .invalidRequest(
                    "a bearer token may hold only letters, digits and -._~+/ followed by optional = (RFC 6750)",
                    block: block))
        }
        return .success("Bearer \(token)")
    }

    /// `Basic <base64(user:password)>` over UTF-8 (RFC 7617); the user name may not contain `:`.
    static func basic(username: String, password: String, block: String) -> Result<String, CourierError> {
        if username.contains(":") {
            return .failure(.invalidRequest("a Basic user name cannot contain \":\" (RFC 7617)", block: block))
        }
        if let bad = (username + password).unicodeScalars.first(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            return .failure(.invalidRequest("Basic credentials cannot contain \(bad.controlName)", block: block))
        }
        return .success("Basic " + Data("\(username):\(password)".utf8).base64EncodedString())
    }

    /// `Token <token>`, the scheme used by Django REST Framework and others.
    static func token(_ token: String, block: String) -> Result<String, CourierError> {
        scheme("Token", credentials: token, block: block)
    }

    /// `<scheme> <credentials>`; the scheme must be an HTTP token.
    static func scheme(_ scheme: String, credentials: String, block: String) -> Result<String, CourierError> {
        guard HTTPToken.isToken(scheme) else {
            return .failure(
                .invalidRequest("\"\(scheme.debugEscaped)\" is not a valid authentication scheme name", block: block))
        }
        guard !credentials.isEmpty else {
            return .failure(.invalidRequest("the \(scheme) credentials are empty", block: block))
        }
        return .success("\(scheme) \(credentials)")
    }

    private static func isB64Token(_ token: String) -> Bool {
        let bytes = Array(token.utf8)
        var end = bytes.count
        while end > 0, bytes[end - 1] == UInt8(ascii: "=") { end -= 1 }
        guard end > 0 else { return false }
        return bytes[..<end].allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"):
                true
            default:
                "-._~+/".utf8.contains(byte)
            }
        }
    }
}
