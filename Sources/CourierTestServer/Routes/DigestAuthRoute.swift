import Foundation
import NIOConcurrencyHelpers

#if canImport(CLibCrypto)
import CLibCrypto
#else
import Crypto
#endif

extension Route {
    /// httpbin's Digest routes (RFC 7616), verified with OpenSSL's libcrypto on Linux and
    /// swift-crypto on Apple platforms, so the client's own hashing is checked against another
    /// implementation:
    ///
    /// - `/digest-auth/{qop}/{user}/{passwd}`: MD5;
    /// - `/digest-auth/{qop}/{user}/{passwd}/{algorithm}`: `MD5`, `MD5-sess`, `SHA-256` or `SHA-256-sess`;
    /// - `/digest-auth/{qop}/{user}/{passwd}/{algorithm}/{stale_after}`: a nonce is refused as
    ///   `stale=true` once it has been used `stale_after` times.
    ///
    /// `qop` is `auth`, `auth-int` (offered alone, which a client that only does `auth` cannot
    /// answer) or `none` (RFC 2069's answer without `qop`). Any method: 200 `{"authenticated": true,
    /// "user": …}` for a correct answer to a nonce this route issued, with a nonce count above the
    /// last one seen; otherwise 401 with a fresh challenge.
    public static func digestAuth() -> [Route] {
        let nonces = NIOLockedValueBox([String: DigestNonceUse]())
        let handler: @Sendable (TestServerRequest) async throws -> TestServerResponse = { request in
            try DigestAuthCheck(request: request, nonces: nonces).response()
        }
        return [
            Route("/digest-auth/{qop}/{user}/{passwd}", handler: handler),
            Route("/digest-auth/{qop}/{user}/{passwd}/{algorithm}", handler: handler),
            Route("/digest-auth/{qop}/{user}/{passwd}/{algorithm}/{stale_after}", handler: handler),
        ]
    }
}

/// How often a nonce the Digest route issued has been answered, and the highest count seen.
struct DigestNonceUse: Sendable {
    var uses = 0
    var lastCount = 0
}

/// One request to the Digest route: the challenge it gets, or the check of its answer.
struct DigestAuthCheck {
    static let realm = "courier-test@example.org"
    static let opaque = "b2F0bWVhbA"

    let request: TestServerRequest
    let nonces: NIOLockedValueBox<[String: DigestNonceUse]>

    var user: String { request.parameters["user"] ?? "" }
    var algorithm: String { request.parameters["algorithm"] ?? "MD5" }
    var qop: String { request.parameters["qop"] ?? "auth" }

    func response() throws -> TestServerResponse {
        guard ["MD5", "MD5-sess", "SHA-256", "SHA-256-sess"].contains(algorithm),
            ["auth", "auth-int", "none"].contains(qop)
        else {
            return try .json(["error": "unknown algorithm or qop"], status: 400)
        }
        let staleAfter = try request.parameters["stale_after"].map { _ in
            try request.integer(parameter: "stale_after", in: 1...1000)
        }
        guard let header = request.header("authorization"), header.lowercased().hasPrefix("digest ") else {
            return try challenge(stale: false)
        }
        let fields = Self.parameters(of: String(header.dropFirst(7)))
        guard let nonce = fields["nonce"] else { return try challenge(stale: false) }
        let count = Int(fields["nc"] ?? "0", radix: 16) ?? 0
        enum Verdict { case unknown, stale, replayed, fresh }
        let verdict = nonces.withLockedValue { nonces -> Verdict in
            guard var use = nonces[nonce] else { return .unknown }
            if let staleAfter, use.uses >= staleAfter { return .stale }
            if qop == "auth", count <= use.lastCount { return .replayed }
            use.uses += 1
            use.lastCount = count
            nonces[nonce] = use
            return .fresh
        }
        switch verdict {
        case .unknown, .replayed: return try challenge(stale: false)
        case .stale: return try challenge(stale: true)
        case .fresh: break
        }
        guard fields["username"] == user, fields["realm"] == Self.realm, fields["uri"] == request.target,
            fields["opaque"] == Self.opaque, (fields["algorithm"] ?? "MD5") == algorithm,
            fields["response"] == expectedResponse(nonce: nonce, fields: fields)
        else { return try challenge(stale: false) }
        return try .json(AuthenticationResult(authenticated: true, user: user))
    }

    func expectedResponse(nonce: String, fields: [String: String]) -> String {
        let password = request.parameters["passwd"] ?? ""
        let cnonce = fields["cnonce"] ?? ""
        var secret = hash("\(user):\(Self.realm):\(password)")
        if algorithm.hasSuffix("-sess") { secret = hash("\(secret):\(nonce):\(cnonce)") }
        let method = hash("\(request.method):\(request.target)")
        if qop == "none" { return hash("\(secret):\(nonce):\(method)") }
        return hash("\(secret):\(nonce):\(fields["nc"] ?? ""):\(cnonce):\(fields["qop"] ?? ""):\(method)")
    }

    func hash(_ text: String) -> String {
        let isSHA256 = algorithm.hasPrefix("SHA-256")
        #if canImport(CLibCrypto)
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let bytes = Array(text.utf8)
        let hashed = EVP_Digest(bytes, bytes.count, &digest, &length, isSHA256 ? EVP_sha256() : EVP_md5(), nil)
        precondition(hashed == 1, "libcrypto refused to hash")  // only with no memory left
        digest.removeSubrange(Int(length)...)
        #else
        let digest: [UInt8] =
            isSHA256 ? Array(SHA256.hash(data: Data(text.utf8))) : Array(Insecure.MD5.hash(data: Data(text.utf8)))
        #endif
        return digest.map { String(format: "%02x", $0) }.joined()
    }

    /// A 401 with a new nonce.
    func challenge(stale: Bool) throws -> TestServerResponse {
        let nonce = UUID().uuidString.lowercased()
        nonces.withLockedValue { $0[nonce] = DigestNonceUse() }
        var parts = [
            "realm=\"\(Self.realm)\"", "nonce=\"\(nonce)\"", "opaque=\"\(Self.opaque)\"", "algorithm=\(algorithm)",
        ]
        if qop != "none" { parts.append("qop=\"\(qop)\"") }
        if stale { parts.append("stale=true") }
        var response = try TestServerResponse.json(AuthenticationResult(authenticated: false), status: 401)
        response.headers.append(("WWW-Authenticate", "Digest " + parts.joined(separator: ", ")))
        return response
    }

    /// The `name=value` and `name="quoted"` pairs of an `Authorization: Digest` value.
    static func parameters(of text: String) -> [String: String] {
        var result: [String: String] = [:]
        var rest = Substring(text)
        while !rest.isEmpty {
            rest = rest.drop { $0 == " " || $0 == "," }
            let name = rest.prefix { $0 != "=" }
            rest = rest.dropFirst(name.count + 1)
            var value = ""
            if rest.first == "\"" {
                rest = rest.dropFirst()
                while let character = rest.first, character != "\"" {
                    if character == "\\" { rest = rest.dropFirst() }
                    if let next = rest.first { value.append(next) }
                    rest = rest.dropFirst()
                }
                rest = rest.dropFirst()
            } else {
                value = String(rest.prefix { $0 != "," })
                rest = rest.dropFirst(value.count)
            }
            if !name.isEmpty {
                result[name.trimmingCharacters(in: .whitespaces).lowercased()] = value.trimmingCharacters(
                    in: .whitespaces)
            }
        }
        return result
    }
}
