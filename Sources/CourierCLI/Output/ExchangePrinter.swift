public import Courier
public import Foundation
import HTTPTypes

/// Lays out the parts of an exchange as HTTPie does: heads as on the wire, JSON bodies indented
/// and coloured when `pretty` says so, binary bodies replaced by a note on a terminal.
public struct ExchangePrinter: Sendable {
    /// What formatting and colouring to apply.
    public var pretty: PrettyMode
    /// Whether the output is a terminal, where binary bodies are not shown.
    public var isTerminal: Bool
    /// The indent of formatted JSON.
    public var indent = 4
    /// The colours.
    public var palette = JSONText.Palette()

    /// A printer with the given settings.
    public init(pretty: PrettyMode, isTerminal: Bool) {
        self.pretty = pretty
        self.isTerminal = isTerminal
    }

    /// The request line, `Host` and the header fields as they go on the wire, then a blank line.
    public func requestHead(_ request: Request) -> String {
        var target = request.path
        if let query = request.url.query(percentEncoded: true) { target += "?" + query }
        var lines = [
            paint(request.method.rawValue, "\u{1B}[32;1m") + " " + paint(target, "\u{1B}[36m") + " "
                + paint(Self.version(of: request), "\u{1B}[34m")
        ]
        if let host = request.host {
            let authority = request.port.map { "\(Self.bracketed(host)):\($0)" } ?? Self.bracketed(host)
            lines.append(field("Host", authority))
        }
        lines += request.wireHeaderFields.map { field($0.name.rawName, $0.value) }
        return lines.joined(separator: "\n") + "\n\n"
    }

    /// The status line and header fields, then a blank line.
    public func responseHead(_ response: Response) -> String {
        let code = response.status.code
        let color =
            switch code {
            case 200..<300: "\u{1B}[32;1m"
            case 300..<400: "\u{1B}[33;1m"
            default: "\u{1B}[31;1m"
            }
        let status = paint("\(code) \(response.status.reasonPhrase)", color)
        var lines = [paint(Self.version(of: response.request), "\u{1B}[34m") + " " + status]
        lines += response.headerFields.map { field($0.name.rawName, $0.value) }
        return lines.joined(separator: "\n") + "\n\n"
    }

    /// A body as it should be printed: JSON laid out and coloured as `pretty` says, other bytes as
    /// they are, and a note instead of binary bytes on a terminal.
    public func body(_ data: Data, contentType: String?) -> Data {
        if isTerminal, data.contains(0) {
            return Data(
                "+-----------------------------------------+\n| NOTE: binary data not shown in terminal |\n+-----------------------------------------+\n"
                    .utf8)
        }
        guard pretty != .none, Self.mayBeJSON(contentType: contentType, data: data),
            let text = JSONText.format(
                data, indent: pretty.formats ? indent : nil, palette: pretty.colors ? palette : nil)
        else { return data }
        return Data((text.hasSuffix("\n") ? text : text + "\n").utf8)
    }

    /// Whether a body is worth trying as JSON: a JSON content type, or none that says otherwise and a
    /// first character that opens a JSON object or array.
    static func mayBeJSON(contentType: String?, data: Data) -> Bool {
        if let type = contentType.map({ MIMEType($0).essence }) {
            if type == "application/json" || type.hasSuffix("+json") { return true }
            if type.hasPrefix("text/javascript") || type == "application/javascript" { return true }
        }
        let first = data.first { ![0x20, 0x0A, 0x0D, 0x09].contains($0) }
        return first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
    }

    /// The protocol shown on status and request lines; over TLS curl may negotiate HTTP/2, which a
    /// `Response` does not record, so no version is claimed there.
    static func version(of request: Request) -> String {
        request.scheme == "http" ? "HTTP/1.1" : "HTTP"
    }

    private static func bracketed(_ host: String) -> String {
        host.contains(":") ? "[\(host)]" : host
    }

    private func field(_ name: String, _ value: String) -> String {
        paint(name, "\u{1B}[36m") + ": " + value
    }

    /// `text` in `color` when colours are on.
    func paint(_ text: String, _ color: String) -> String {
        pretty.colors ? color + text + palette.reset : text
    }
}
