#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A `Digest` challenge from a `WWW-Authenticate` field (RFC 7616 §3.3), the parts a client
/// needs to answer it.
struct DigestChallenge: Sendable, Equatable {
    /// The algorithms a client can answer, the strongest first (RFC 7616 §3.7: prefer SHA-256).
    enum Algorithm: String, Sendable, CaseIterable {
        case sha256Session = "SHA-256-sess"
        case sha256 = "SHA-256"
        case md5Session = "MD5-sess"
        case md5 = "MD5"

        var hashFunction: DigestHashFunction {
            switch self {
            case .md5, .md5Session: .md5
            case .sha256, .sha256Session: .sha256
            }
        }

        var isSession: Bool { self == .md5Session || self == .sha256Session }

        /// Stronger algorithms sort first.
        var strength: Int { self.hashFunction == .sha256 ? 1 : 0 }
    }

    var realm: String
    var nonce: String
    var opaque: String?
    var algorithm: Algorithm
    /// Whether the server offers `qop=auth`; `false` means RFC 2069's answer without `qop`.
    var offersAuthQOP: Bool
    /// The server says the last nonce expired, not that the credentials are wrong.
    var isStale: Bool
    /// The server asks for the user name hashed (RFC 7616 §3.4.4).
    var hashesUserName: Bool

    /// The challenges a client can answer in `values` (each a `WWW-Authenticate` field value,
    /// which may hold several challenges), strongest algorithm first. Challenges with an unknown
    /// algorithm (SHA-512-256), or with only `qop=auth-int`, are left out.
    static func parse(_ values: [String]) -> [DigestChallenge] {
        values.flatMap { AuthenticateFieldParser(value: $0).challenges() }
            .compactMap { scheme, parameters -> DigestChallenge? in
                guard scheme.lowercased() == "digest",
                    let realm = parameters["realm"], let nonce = parameters["nonce"],
                    let algorithm = Algorithm.allCases.first(where: {
                        $0.rawValue.lowercased() == (parameters["algorithm"] ?? "MD5").lowercased()
                    })
                else { return nil }
                let qops = parameters["qop"].map {
                    $0.split(separator: ",").map { $0.trimmingWhitespace().lowercased() }
                }
                if let qops, !qops.contains("auth") { return nil }
                return DigestChallenge(
                    realm: realm, nonce: nonce, opaque: parameters["opaque"], algorithm: algorithm,
                    offersAuthQOP: qops != nil, isStale: parameters["stale"]?.lowercased() == "true",
                    hashesUserName: parameters["userhash"]?.lowercased() == "true")
            }
            .sorted { $0.algorithm.strength > $1.algorithm.strength }
    }

    /// The `Authorization` value answering this challenge for `method` and `uri` (the request
    /// target), as the `nc`-th use of its nonce, with client nonce `cnonce` (RFC 7616 §3.4).
    func authorization(
        user: String, password: String, method: String, uri: String, nonceCount: Int, cnonce: String
    ) -> String {
        let hash = algorithm.hashFunction
        var secret = hash.hex("\(user):\(realm):\(password)")
        if algorithm.isSession { secret = hash.hex("\(secret):\(nonce):\(cnonce)") }
        let request = hash.hex("\(method):\(uri)")
        let count = TextFormat.hex(nonceCount, width: 8)
        let response =
            offersAuthQOP
            ? hash.hex("\(secret):\(nonce):\(count):\(cnonce):auth:\(request)")
            : hash.hex("\(secret):\(nonce):\(request)")
        let name = hashesUserName ? hash.hex("\(user):\(realm)") : user
        var parts = [
            "username=\(Self.quoted(name))", "realm=\(Self.quoted(realm))", "uri=\(Self.quoted(uri))",
            "algorithm=\(algorithm.rawValue)", "nonce=\(Self.quoted(nonce))",
        ]
        if offersAuthQOP { parts += ["nc=\(count)", "cnonce=\(Self.quoted(cnonce))", "qop=auth"] }
        parts.append("response=\(Self.quoted(response))")
        if let opaque { parts.append("opaque=\(Self.quoted(opaque))") }
        if hashesUserName { parts.append("userhash=true") }
        return "Digest " + parts.joined(separator: ", ")
    }

    /// `text` as an RFC 9110 quoted-string.
    static func quoted(_ text: String) -> String {
        "\"" + text.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"") + "\""
    }
}

/// Reads the challenges of one `WWW-Authenticate` value: `scheme param=value, param="quoted", …`,
/// possibly several schemes in a row (RFC 9110 §11.6.1).
struct AuthenticateFieldParser {
    let value: String

    func challenges() -> [(scheme: String, parameters: [String: String])] {
        var result: [(String, [String: String])] = []
        var scanner = Substring(value)
        func skipSpaces() { scanner = scanner.drop { $0 == " " || $0 == "\t" || $0 == "," } }
        func token() -> Substring {
            let token = scanner.prefix { !" \t,=\"".contains($0) }
            scanner = scanner.dropFirst(token.count)
            return token
        }
        skipSpaces()
        while !scanner.isEmpty {
            let scheme = token()
            guard !scheme.isEmpty else { break }
            var parameters: [String: String] = [:]
            while true {
                skipSpaces()
                let mark = scanner
                let name = token()
                scanner = scanner.drop { $0 == " " || $0 == "\t" }
                guard !name.isEmpty, scanner.first == "=" else {
                    scanner = mark  // the next scheme, or a token68 this parser does not need
                    break
                }
                scanner = scanner.dropFirst().drop { $0 == " " || $0 == "\t" }
                var text = ""
                if scanner.first == "\"" {
                    scanner = scanner.dropFirst()
                    while let character = scanner.first, character != "\"" {
                        if character == "\\" { scanner = scanner.dropFirst() }
                        if let next = scanner.first { text.append(next) }
                        scanner = scanner.dropFirst()
                    }
                    scanner = scanner.dropFirst()
                } else {
                    text = String(token())
                }
                parameters[name.lowercased()] = text
            }
            result.append((String(scheme), parameters))
            skipSpaces()
        }
        return result
    }
}
