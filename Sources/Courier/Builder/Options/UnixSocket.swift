#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Sends the request over a Unix domain socket instead of TCP: the Docker and systemd APIs,
/// curl's `--unix-socket`. The URL keeps its path and query; its host only names the `Host` header.
///
/// ```swift
/// let containers = try await client.send {
///     UnixSocket("/var/run/docker.sock")
///     BaseURL("http://localhost/v1.43")
///     "containers/json"
/// }
/// ```
///
/// An `http+unix://` URL says the same in the URL, with the percent-encoded socket path as its host
/// (`http+unix://%2Fvar%2Frun%2Fdocker.sock/v1.43/info`, AsyncHTTPClient's and
/// requests-unixsocket's spelling); it becomes `http://localhost/…` with this setting.
/// `Client.Configuration.unixSocketPath` sets it for every request that does not set its own.
/// libcurl and AsyncHTTPClient send over a socket; URLSession cannot, and refuses the request.
public struct UnixSocket: RequestBuildable, Sendable {
    /// The socket's path in the file system.
    public let path: String

    /// The socket at `path`.
    public init(_ path: String) { self.path = path }

    public func apply(to draft: inout RequestDraft) throws {
        draft.options[UnixSocketOption.self] = try Self.checkedPath(path, block: "UnixSocket")
    }

    /// `path` when a socket address can hold it: not empty, no NUL, at most 107 bytes (`sun_path`).
    static func checkedPath(_ path: String, block: String) throws -> String {
        guard !path.isEmpty, !path.utf8.contains(0) else {
            throw CourierError.invalidRequest("a Unix socket path must be non-empty and contain no NUL", block: block)
        }
        guard path.utf8.count <= 107 else {
            throw CourierError.invalidRequest(
                "the Unix socket path \"\(path.debugEscaped)\" is \(path.utf8.count) bytes; a socket address holds 107",
                block: block)
        }
        return path
    }
}

/// The Unix domain socket a request goes over (``UnixSocket``); `nil` for TCP.
public enum UnixSocketOption: RequestOptionKey {
    public static let defaultValue: String? = nil
}

extension Request {
    /// The Unix domain socket this request goes over, when it does not go over TCP.
    public var unixSocketPath: String? { options[UnixSocketOption.self] }

    /// Whether the URL is an `http+unix` or `https+unix` one, which `Client` turns into a plain one
    /// with ``UnixSocketOption`` (a request made without the builder keeps it as written).
    var isUnixSocketURL: Bool {
        UnixSocketURL.isUnixSocketURL(url.absoluteString)
    }

    /// This request with its `+unix` URL made plain and the socket recorded, or with `path` as its
    /// socket when it names none.
    func routedOverUnixSocket(default path: String?) throws -> Request {
        var routed = self
        if isUnixSocketURL, var components = URLComponents(url: url, resolvingAgainstBaseURL: false) {
            routed.options[UnixSocketOption.self] = try UnixSocketURL.socketPath(
                fromAuthority: components.percentEncodedHost, block: "Request.url")
            components.scheme = UnixSocketURL.plainScheme(of: components.scheme ?? "")
            components.percentEncodedHost = "localhost"
            if let plain = components.url { routed.url = plain }
        } else if let path, unixSocketPath == nil {
            routed.options[UnixSocketOption.self] = try UnixSocket.checkedPath(path, block: "Client.Configuration")
        }
        return routed
    }
}

/// `http+unix://` and `https+unix://` URLs: the socket path percent-encoded as the host.
enum UnixSocketURL {
    /// The plain scheme of a `+unix` one (`http+unix` → `http`), `nil` for any other.
    static func plainScheme(of scheme: String) -> String? {
        switch scheme.lowercased() {
        case "http+unix": "http"
        case "https+unix": "https"
        default: nil
        }
    }

    /// Whether `text` starts with an `http+unix:` or `https+unix:` scheme.
    ///
    /// Checked on every send, so it reads the bytes in place: the colon can only be the 10th or
    /// 11th byte, which rules out `http` and `https` URLs before any comparison.
    static func isUnixSocketURL(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            let colon = UInt8(ascii: ":")
            let scheme =
                bytes.count > 9 && bytes[9] == colon
                ? "http+unix" : bytes.count > 10 && bytes[10] == colon ? "https+unix" : nil
            guard let scheme else { return false }
            return bytes.prefix(scheme.utf8.count).lazy.map { $0 | 0x20 }.elementsEqual(scheme.utf8)
        }
    }

    /// The socket path an `http+unix` URL's authority names.
    static func socketPath(fromAuthority authority: String?, block: String) throws -> String {
        guard let authority, let path = PercentEncoding.decode(authority), !path.isEmpty else {
            throw CourierError.invalidRequest(
                "an http+unix URL names its socket as its host, percent-encoded (http+unix://%2Fvar%2Frun%2Fapp.sock/path)",
                block: block)
        }
        return try UnixSocket.checkedPath(path, block: block)
    }
}
