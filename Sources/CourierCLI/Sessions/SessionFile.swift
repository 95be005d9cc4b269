import Foundation

/// A session as stored on disk, in HTTPie 3.2's format, so HTTPie's session files work as they are:
///
/// ```json
/// {
///   "__meta__": {"about": "Courier session file", …},
///   "auth": {"type": "basic", "raw_auth": "ada:secret"},
///   "cookies": [{"name": "sid", "value": "1", "domain": "127.0.0.1", "path": "/", "secure": false, "expires": null}],
///   "headers": [{"name": "X-API-Key", "value": "k"}]
/// }
/// ```
///
/// HTTPie before 3.1 wrote `headers` and `cookies` as objects keyed by name, and `auth` with
/// `username` and `password`; those are read too, and written back in the newer form.
struct SessionFile: Codable, Sendable, Equatable {
    /// A header the session sends with every request.
    struct Header: Codable, Sendable, Equatable {
        var name: String
        var value: String
    }

    /// A cookie the session keeps. A `domain` starting with `.` matches subdomains too; an empty
    /// one (as HTTPie may write) means the host the session is for.
    struct Cookie: Codable, Sendable, Equatable {
        var name: String
        var value: String
        var domain: String = ""
        var path: String = "/"
        var secure: Bool = false
        /// Seconds since 1970, or `nil` for a cookie without expiry.
        var expires: Double?

        enum CodingKeys: String, CodingKey { case name, value, domain, path, secure, expires }

        init(
            name: String, value: String, domain: String = "", path: String = "/", secure: Bool = false,
            expires: Double? = nil
        ) {
            self.name = name
            self.value = value
            self.domain = domain
            self.path = path
            self.secure = secure
            self.expires = expires
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            name = try container.decodeIfPresent(String.self, forKey: .name) ?? ""
            value = try container.decode(String.self, forKey: .value)
            domain = try container.decodeIfPresent(String.self, forKey: .domain) ?? ""
            path = try container.decodeIfPresent(String.self, forKey: .path) ?? "/"
            secure = try container.decodeIfPresent(Bool.self, forKey: .secure) ?? false
            expires = try container.decodeIfPresent(Double.self, forKey: .expires)
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
            try container.encode(value, forKey: .value)
            try container.encode(domain, forKey: .domain)
            try container.encode(path, forKey: .path)
            try container.encode(secure, forKey: .secure)
            try container.encode(expires, forKey: .expires)
        }
    }

    /// The credentials the session sends when the command line gives none.
    struct Auth: Codable, Sendable, Equatable {
        /// `basic`, `bearer` or `digest`; `nil` for none.
        var type: String?
        /// What `--auth` was: `user:password`, or the token for `bearer`.
        var rawAuth: String?

        enum CodingKeys: String, CodingKey {
            case type
            case rawAuth = "raw_auth"
            case username, password
        }

        init(type: String? = nil, rawAuth: String? = nil) {
            self.type = type
            self.rawAuth = rawAuth
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            type = try container.decodeIfPresent(String.self, forKey: .type)
            if let raw = try container.decodeIfPresent(String.self, forKey: .rawAuth) {
                rawAuth = raw
            } else if let user = try container.decodeIfPresent(String.self, forKey: .username) {
                rawAuth = user + ":" + (try container.decodeIfPresent(String.self, forKey: .password) ?? "")
            }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(type, forKey: .type)
            try container.encode(rawAuth, forKey: .rawAuth)
        }
    }

    var auth = Auth()
    var cookies: [Cookie] = []
    var headers: [Header] = []

    enum CodingKeys: String, CodingKey {
        case meta = "__meta__"
        case auth, cookies, headers
    }

    init() {}

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        auth = try container.decodeIfPresent(Auth.self, forKey: .auth) ?? Auth()
        if let list = try? container.decodeIfPresent([Header].self, forKey: .headers) {
            headers = list
        } else if let legacy = try container.decodeIfPresent([String: String].self, forKey: .headers) {
            headers = legacy.sorted { $0.key < $1.key }.map { Header(name: $0.key, value: $0.value) }
        }
        if let list = try? container.decodeIfPresent([Cookie].self, forKey: .cookies) {
            cookies = list
        } else if let legacy = try container.decodeIfPresent([String: LegacyCookie].self, forKey: .cookies) {
            cookies = legacy.sorted { $0.key < $1.key }.map { name, cookie in
                Cookie(
                    name: name, value: cookie.value, path: cookie.path ?? "/", secure: cookie.secure ?? false,
                    expires: cookie.expires)
            }
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(
            [
                "about": "Courier session file (HTTPie 3.2's format)",
                "help": "courier --help: SESSIONS", "courier": CourierCommand.version,
            ], forKey: .meta)
        try container.encode(auth, forKey: .auth)
        try container.encode(cookies, forKey: .cookies)
        try container.encode(headers, forKey: .headers)
    }

    /// A cookie as HTTPie before 3.1 stored it, under its name.
    struct LegacyCookie: Decodable {
        var value: String
        var path: String?
        var secure: Bool?
        var expires: Double?
    }

    /// The session stored at `url`, or an empty one when there is no file yet.
    ///
    /// - Throws: ``SessionFileError`` naming the file when it cannot be read or parsed.
    static func load(from url: URL) throws -> SessionFile {
        guard FileManager.default.fileExists(atPath: url.path) else { return SessionFile() }
        do {
            return try JSONDecoder().decode(SessionFile.self, from: Data(contentsOf: url))
        } catch let error as DecodingError {
            throw SessionFileError(path: url.path, problem: "is not a session file: \(Self.describe(error))")
        } catch {
            throw SessionFileError(path: url.path, problem: "cannot be read (\(error.localizedDescription))")
        }
    }

    /// Writes the session to `url`, readable only by its owner (it holds credentials and cookies),
    /// creating its directory.
    func save(to url: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
            var data = try encoder.encode(self)
            data.append(UInt8(ascii: "\n"))
            try data.write(to: url, options: .atomic)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
        } catch {
            throw SessionFileError(path: url.path, problem: "cannot be written (\(error.localizedDescription))")
        }
    }

    private static func describe(_ error: DecodingError) -> String {
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context),
            .dataCorrupted(let context):
            let path = context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
            return path.isEmpty ? context.debugDescription : "\(path): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }
}

/// A session file that cannot be read, parsed or written.
public struct SessionFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file.
    public var path: String
    /// What went wrong.
    public var problem: String

    public var description: String { "the session file \(path) \(problem)" }
}
