#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The public keys a host's certificate may carry, as OkHttp's `CertificatePinner` and curl's
/// `--pinnedpubkey` take them: `sha256//` and the base64 SHA-256 of the key's DER
/// `SubjectPublicKeyInfo`. A pinned host's connection fails with `insecureConnection`, naming the
/// host and its pins, unless the server's key is one of them; verification still runs as set.
///
/// ```swift
/// var tls = TLSSettings()
/// try tls.publicKeyPins.pin("api.example.com", to: ["sha256//r8udi/Mxd6pLO7y7hZyUMWq8YnFnIWXCqeHsTDRqy8E="])
/// ```
///
/// `openssl x509 -in cert.pem -pubkey -noout | openssl pkey -pubin -outform der |
/// openssl dgst -sha256 -binary | base64` prints a certificate's pin. A host is a name (matched
/// without regard to case), `*.` and a domain, which matches one label below it (OkHttp's rule),
/// or `*` alone for every host (what `curl --pinnedpubkey` does).
/// libcurl checks pins; AsyncHTTPClient and URLSession have no hook for it and refuse them by name.
public struct PublicKeyPins: Sendable, Hashable, CustomStringConvertible {
    /// The pins of each host pattern, patterns lowercased.
    public private(set) var pinsByHost: [String: [String]] = [:]

    /// No pins.
    public init() {}

    /// Whether no host is pinned.
    public var isEmpty: Bool { pinsByHost.isEmpty }

    /// Pins `host` (a name, `*.` and a domain, or `*`) to `pins`, each `sha256//` and 44 base64
    /// characters; adds to the host's earlier pins.
    public mutating func pin(_ host: String, to pins: [String]) throws(CourierError) {
        let pattern = host.lowercased()
        let name = pattern.hasPrefix("*.") ? String(pattern.dropFirst(2)) : pattern == "*" ? "any" : pattern
        guard !name.isEmpty, !name.contains("*"), !name.utf8.contains(where: { $0 <= 0x20 || $0 == UInt8(ascii: "/") })
        else {
            throw CourierError(
                .invalidRequest, "\"\(host.debugEscaped)\" is not a host name or *.domain to pin",
                source: "TLSSettings.publicKeyPins")
        }
        guard !pins.isEmpty else {
            throw CourierError(
                .invalidRequest, "pinning \(pattern) needs at least one pin", source: "TLSSettings.publicKeyPins")
        }
        for pin in pins where !Self.isPin(pin) {
            throw CourierError(
                .invalidRequest,
                "\"\(pin.debugEscaped)\" is not a pin: sha256// and the base64 SHA-256 of the key (44 characters)",
                source: "TLSSettings.publicKeyPins")
        }
        pinsByHost[pattern, default: []].append(contentsOf: pins.filter { !(pinsByHost[pattern] ?? []).contains($0) })
    }

    /// Adds an entry written `host=pin;pin…` (the C library's and the CLI's spelling); a bare
    /// `pin;pin…` pins every host, as `curl --pinnedpubkey` does.
    public mutating func pin(entry: String) throws(CourierError) {
        let (host, pins) =
            if !entry.hasPrefix("sha256//"), let equals = entry.firstIndex(of: "=") {
                (String(entry[..<equals]), entry[entry.index(after: equals)...])
            } else {
                ("*", entry[...])
            }
        try pin(host, to: pins.split(separator: ";").map { $0.trimmingWhitespace() })
    }

    /// The pins that apply to `host`: its own and those of a `*.` pattern one label above it.
    public func pins(for host: String) -> [String] {
        guard !pinsByHost.isEmpty else { return [] }
        let host = host.lowercased()
        var pins = pinsByHost[host] ?? []
        if let dot = host.firstIndex(of: "."), let wildcard = pinsByHost["*" + host[dot...]] {
            pins += wildcard.filter { !pins.contains($0) }
        }
        if let everyHost = pinsByHost["*"] { pins += everyHost.filter { !pins.contains($0) } }
        return pins
    }

    /// `host=pin;pin` entries, sorted by host.
    public var description: String {
        pinsByHost.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value.joined(separator: ";"))" }
            .joined(separator: " ")
    }

    /// Whether `text` is `sha256//` and the base64 of 32 bytes.
    static func isPin(_ text: String) -> Bool {
        guard text.hasPrefix("sha256//") else { return false }
        let encoded = text.dropFirst(8)
        return encoded.utf8.count == 44 && Data(base64Encoded: String(encoded))?.count == 32
    }
}
