#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The hosts that bypass the proxy, read as curl reads `NO_PROXY` (curl 7.86 and later).
///
/// Entries are separated by commas or spaces, and matched without regard to case or port:
/// - `*` alone: every host;
/// - a name, with or without a leading dot: that name and every name below it
///   (`example.com` and `.example.com` both match `example.com` and `api.example.com`);
/// - an IPv4 or IPv6 address: that address only, as an address (`::1` matches `[::1]`);
/// - an address with a prefix length (`10.0.0.0/8`, `fd00::/8`): every address in that range.
public struct NoProxyRule: Sendable, Hashable {
    private enum Entry: Sendable, Hashable {
        case everything
        case name(String)
        case network(bytes: [UInt8], prefixLength: Int)
    }

    private let entries: [Entry]

    /// The rule for `entries`, each in `NO_PROXY`'s syntax; an entry may itself list several.
    public init(_ entries: [String]) {
        self.entries =
            entries
            .flatMap { $0.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\t" }) }
            .compactMap { Self.entry(String($0)) }
    }

    /// The rule for a `NO_PROXY` value.
    public init(_ list: String) { self.init([list]) }

    /// Whether no entry was given, so every host goes through the proxy.
    public var isEmpty: Bool { entries.isEmpty }

    /// Whether a request to `host` goes direct.
    public func bypasses(_ host: String) -> Bool {
        guard !entries.isEmpty else { return false }
        var host = host.lowercased()
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host.hasSuffix(".") { host.removeLast() }
        let address = Self.addressBytes(host)
        return entries.contains { entry in
            switch entry {
            case .everything:
                return true
            case .name(let name):
                return address == nil && (host == name || host.hasSuffix("." + name))
            case .network(let bytes, let prefixLength):
                guard let address, address.count == bytes.count else { return false }
                return Self.prefix(of: address, equalsPrefixOf: bytes, length: prefixLength)
            }
        }
    }

    private static func entry(_ text: String) -> Entry? {
        var text = text.lowercased()
        guard !text.isEmpty else { return nil }
        if text == "*" { return .everything }
        var prefixLength: Int?
        if let slash = text.firstIndex(of: "/") {
            guard let length = Int(text[text.index(after: slash)...]) else { return nil }
            prefixLength = length
            text = String(text[..<slash])
        }
        if text.hasPrefix("["), text.hasSuffix("]") { text = String(text.dropFirst().dropLast()) }
        if let bytes = addressBytes(text) {
            let length = min(max(prefixLength ?? bytes.count * 8, 0), bytes.count * 8)
            return .network(bytes: bytes, prefixLength: length)
        }
        guard prefixLength == nil else { return nil }
        if text.hasPrefix(".") { text.removeFirst() }
        if text.hasSuffix(".") { text.removeLast() }
        return text.isEmpty ? nil : .name(text)
    }

    /// The 4 or 16 bytes of an IPv4 or IPv6 address written in `text`, or `nil` for a host name.
    static func addressBytes(_ text: String) -> [UInt8]? {
        IPAddress(text)?.bytes
    }

    private static func prefix(of address: [UInt8], equalsPrefixOf network: [UInt8], length: Int) -> Bool {
        var remaining = length
        for (a, b) in zip(address, network) where remaining > 0 {
            let bits = min(remaining, 8)
            let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - bits))
            if a & mask != b & mask { return false }
            remaining -= bits
        }
        return true
    }
}
