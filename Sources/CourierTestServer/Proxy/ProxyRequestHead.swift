import NIOCore

/// A request head as the proxy reads it from raw bytes: the request line and the header lines,
/// each kept as received, so the head can be forwarded byte for byte but for the fields the proxy drops.
struct ProxyRequestHead {
    /// One header line: its name and value for lookups, and its bytes as received for forwarding.
    struct Field {
        var name: String
        var value: String
        var line: [UInt8]
    }

    /// The largest head the proxy reads, request line and empty line included; a client that sends
    /// more without ending the head is answered 431.
    static let maximumSize = 64 * 1024

    /// The bytes that end a head: `\r\n\r\n`.
    static let terminator: [UInt8] = Array("\r\n\r\n".utf8)

    var method: String
    var target: String
    var version: String
    var fields: [Field]

    /// Parses `bytes`, a head without its final empty line; `nil` when the request line is not
    /// `method SP target SP HTTP/1.x`.
    init?(_ bytes: some Collection<UInt8>) {
        var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { line in
            line.last == UInt8(ascii: "\r") ? Array(line.dropLast()) : Array(line)
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        guard !lines.isEmpty else { return nil }
        let requestLine = lines.removeFirst()
        let parts = requestLine.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
        guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty }) else { return nil }
        method = String(decoding: parts[0], as: UTF8.self)
        target = String(decoding: parts[1], as: UTF8.self)
        version = String(decoding: parts[2], as: UTF8.self)
        guard version.hasPrefix("HTTP/1.") else { return nil }
        fields = lines.map { line in
            let colon = line.firstIndex(of: UInt8(ascii: ":")) ?? line.endIndex
            let name = String(decoding: line[..<colon], as: UTF8.self)
            let value = colon < line.endIndex ? String(decoding: line[(colon + 1)...], as: UTF8.self) : ""
            return Field(name: name.trimmingASCIIWhitespace(), value: value.trimmingASCIIWhitespace(), line: line)
        }
    }

    /// The value of the first field named `name` (case-insensitively), if any.
    func value(of name: String) -> String? {
        fields.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// The head to send the origin: the request line in origin-form, the fields without the
    /// proxy's own and the hop-by-hop ones, and `Connection: close`, since the proxy relays one
    /// request per connection and learns the response has ended only when the origin closes.
    func forwarded(originForm: String, authority: String) -> ByteBuffer {
        let connectionOptions =
            fields
            .filter { $0.name.lowercased() == "connection" }
            .flatMap { $0.value.split(separator: ",").map { $0.trimmingASCIIWhitespace().lowercased() } }
        let dropped = Set(["proxy-authorization", "proxy-connection", "connection", "keep-alive"] + connectionOptions)
        var buffer = ByteBuffer()
        buffer.writeString("\(method) \(originForm) \(version)\r\n")
        if value(of: "Host") == nil { buffer.writeString("Host: \(authority)\r\n") }
        for field in fields where !dropped.contains(field.name.lowercased()) {
            buffer.writeBytes(field.line)
            buffer.writeString("\r\n")
        }
        buffer.writeString("Connection: close\r\n\r\n")
        return buffer
    }
}

/// Where a request asks the proxy to connect, parsed from its target.
struct ProxyTarget: Equatable {
    /// The host without brackets: `127.0.0.1`, `::1`, `localhost`.
    var host: String
    var port: Int
    /// The request target to send the origin (`/path?q`); `nil` for `CONNECT`.
    var originForm: String?

    /// `host:port` as a `Host` field would carry it.
    var authority: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// The target of `CONNECT`: authority-form, `host:port`, the port required.
    init?(connect target: String) {
        guard let (host, port) = Self.parseAuthority(Substring(target), defaultPort: nil) else { return nil }
        self.host = host
        self.port = port
        originForm = nil
    }

    /// The target of any other method: absolute-form `http://host[:port][/path][?query]`.
    init?(absolute target: String) {
        let scheme = "http://"
        guard target.lowercased().hasPrefix(scheme) else { return nil }
        let rest = target.dropFirst(scheme.count)
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        guard let (host, port) = Self.parseAuthority(rest[..<authorityEnd], defaultPort: 80) else { return nil }
        var pathAndQuery = rest[authorityEnd...]
        if let fragment = pathAndQuery.firstIndex(of: "#") { pathAndQuery = pathAndQuery[..<fragment] }
        self.host = host
        self.port = port
        originForm = pathAndQuery.hasPrefix("/") ? String(pathAndQuery) : "/" + pathAndQuery
    }

    /// Whether the host is on the loopback interface: `localhost`, 127.0.0.0/8 or `::1`.
    /// The proxy connects nowhere else, so a test can never reach out of the machine through it.
    var isLoopback: Bool {
        if host.lowercased() == "localhost" { return true }
        guard let address = socketAddress?.ipAddress else { return false }
        return address.hasPrefix("127.") || address == "::1"
    }

    /// The address to connect to when the host is an IP literal; `nil` for a name.
    var socketAddress: SocketAddress? {
        try? SocketAddress(ipAddress: host, port: port)
    }

    /// `host[:port]`, with `[…]` around an IPv6 host; no user info.
    private static func parseAuthority(_ authority: Substring, defaultPort: Int?) -> (String, Int)? {
        guard !authority.contains("@") else { return nil }
        let host: Substring
        let portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            host = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            guard after.isEmpty || after.hasPrefix(":") else { return nil }
            portText = after.isEmpty ? nil : after.dropFirst()
        } else if let colon = authority.lastIndex(of: ":") {
            host = authority[..<colon]
            portText = authority[authority.index(after: colon)...]
        } else {
            host = authority
            portText = nil
        }
        guard !host.isEmpty else { return nil }
        let port: Int
        if let portText {
            guard !portText.isEmpty, portText.allSatisfy({ ("0"..."9").contains($0) }), let value = Int(portText),
                (1...65535).contains(value)
            else { return nil }
            port = value
        } else {
            guard let defaultPort else { return nil }
            port = defaultPort
        }
        return (String(host), port)
    }
}

extension StringProtocol {
    /// The string without leading and trailing spaces and tabs (HTTP's optional whitespace).
    func trimmingASCIIWhitespace() -> String {
        let isWhitespace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isWhitespace($0) }), let last = lastIndex(where: { !isWhitespace($0) })
        else { return "" }
        return String(self[first...last])
    }
}
