#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The credentials of a `.netrc` file, which curl, requests, httpx and HTTPie all read: a request
/// with no credentials of its own gets Basic credentials from the entry for its host, as
/// `curl --netrc-optional` does. `Client.Configuration.netrc` turns it on.
///
/// ```swift
/// var configuration = Client.Configuration()
/// configuration.netrc = try Netrc.standard()   // $NETRC, else ~/.netrc; nil when neither exists
/// ```
///
/// The file is read once, when the value is made. Entries are `machine NAME login USER password
/// PASSWORD` (and `account`, which is read and not used), with `default` for every other host;
/// `macdef` bodies are skipped, to the next blank line, and `#` starts a comment that runs to the
/// end of its line. Values may be quoted (`"two words"`, with `\"` and `\\`), as curl 7.84 reads
/// them. The credentials go only to the host they were written for: a redirect to another origin
/// drops them, as it drops every `Authorization`.
public struct Netrc: Sendable, Hashable {
    /// One entry's credentials.
    public struct Login: Sendable, Hashable {
        /// The user name (`login`).
        public var user: String
        /// The password; `nil` when the entry names none (sent as an empty one).
        public var password: String?

        /// A login of `user` with `password`.
        public init(user: String, password: String?) {
            self.user = user
            self.password = password
        }
    }

    /// One `machine` entry.
    public struct Machine: Sendable, Hashable {
        /// The host name, lowercased.
        public var host: String
        /// Its credentials.
        public var login: Login
    }

    /// The `machine` entries in file order (the first for a host wins).
    public private(set) var machines: [Machine] = []
    /// The `default` entry, for every host without one of its own.
    public private(set) var fallback: Login?

    /// The file `path` names, read and parsed now.
    ///
    /// - Throws: `invalidRequest` naming the file when it cannot be read, or naming the line of a
    ///   token that does not belong where it is.
    public init(contentsOf path: String) throws(CourierError) {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw CourierError(
                .invalidRequest, "the netrc file \(path) cannot be read", source: "Netrc", underlying: error)
        }
        try self.init(parsing: text, file: path)
    }

    /// `text` in the `.netrc` format; `file` names it in errors.
    public init(parsing text: String, file: String = "netrc") throws(CourierError) {
        var tokens = NetrcTokens(text)
        var current: (host: String?, login: Login)?
        func finish() {
            guard let entry = current else { return }
            if let host = entry.host {
                machines.append(Machine(host: host, login: entry.login))
            } else if fallback == nil {
                fallback = entry.login
            }
            current = nil
        }
        while let token = tokens.next() {
            switch token.text {
            case "machine":
                finish()
                guard let host = tokens.next() else { throw Self.error("machine without a name", token, file) }
                current = (host.text.lowercased(), Login(user: "", password: nil))
            case "default":
                finish()
                current = (nil, Login(user: "", password: nil))
            case "login", "password", "account":
                guard current != nil else { throw Self.error("\"\(token.text)\" outside an entry", token, file) }
                guard let value = tokens.next() else {
                    throw Self.error("\"\(token.text)\" without a value", token, file)
                }
                if token.text == "login" { current?.login.user = value.text }
                if token.text == "password" { current?.login.password = value.text }
            case "macdef":
                finish()
                tokens.skipMacro()
            default:
                throw Self.error("unexpected \"\(token.text.debugEscaped)\"", token, file)
            }
        }
        finish()
    }

    /// `$NETRC` when set, else `~/.netrc`, read now; `nil` when the file does not exist.
    /// `environment` replaces the process's, for tests.
    public static func standard(environment: [String: String]? = nil) throws(CourierError) -> Netrc? {
        let environment = environment ?? ProcessInfo.processInfo.environment
        let path: String
        if let named = environment["NETRC"], !named.isEmpty {
            path = named
        } else if let home = environment["HOME"], !home.isEmpty {
            path = home + "/.netrc"
        } else {
            return nil
        }
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        return try Netrc(contentsOf: path)
    }

    /// The login for `host`: its own entry, else the `default` one; `nil` when neither exists.
    public func login(for host: String) -> Login? {
        let host = host.lowercased()
        return machines.first { $0.host == host }?.login ?? fallback
    }

    /// The `Authorization` value for `host`, when the file has a login for it that Basic can carry.
    func authorization(for host: String) -> String? {
        guard let login = login(for: host), !login.user.isEmpty else { return nil }
        return try? Credentials.basic(username: login.user, password: login.password ?? "", block: "Netrc").get()
    }

    private static func error(_ what: String, _ token: NetrcTokens.Token, _ file: String) -> CourierError {
        CourierError(.invalidRequest, "\(file), line \(token.line): \(what)", source: "Netrc")
    }
}

/// The whitespace-separated tokens of a `.netrc` file, quoted ones unquoted, with their line numbers.
struct NetrcTokens {
    struct Token {
        let text: String
        let line: Int
    }

    private var scalars: [Unicode.Scalar]
    private var index = 0
    private var line = 1

    init(_ text: String) { scalars = Array(text.unicodeScalars) }

    mutating func next() -> Token? {
        while index < scalars.count, scalars[index].properties.isWhitespace || scalars[index] == "#" {
            if scalars[index] == "#" {
                // A comment, to the end of its line (curl and Python's netrc skip them too).
                while index < scalars.count, scalars[index] != "\n" { index += 1 }
                continue
            }
            if scalars[index] == "\n" { line += 1 }
            index += 1
        }
        guard index < scalars.count else { return nil }
        let start = line
        var text = String.UnicodeScalarView()
        if scalars[index] == "\"" {
            index += 1
            while index < scalars.count, scalars[index] != "\"" {
                if scalars[index] == "\\", index + 1 < scalars.count { index += 1 }
                if scalars[index] == "\n" { line += 1 }
                text.append(scalars[index])
                index += 1
            }
            index += 1
        } else {
            while index < scalars.count, !scalars[index].properties.isWhitespace {
                text.append(scalars[index])
                index += 1
            }
        }
        return Token(text: String(text), line: start)
    }

    /// Skips a `macdef` line and its body, which ends at the first empty line.
    mutating func skipMacro() {
        var previousWasNewline = false
        while index < scalars.count {
            let scalar = scalars[index]
            index += 1
            if scalar == "\n" {
                line += 1
                if previousWasNewline { return }
                previousWasNewline = true
            } else {
                previousWasNewline = false
            }
        }
    }
}
