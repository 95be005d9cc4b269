/// How a transport sets up TLS: which servers it trusts, the certificate it shows for mutual TLS,
/// and the oldest protocol version it accepts. One value for every transport, so a client changes
/// transport without changing how it trusts servers.
///
/// ```swift
/// var tls = TLSSettings()
/// tls.caFile = "/etc/ssl/internal-ca.pem"
/// tls.clientCertificate = .init(certificateFile: "client.pem", keyFile: "client.key")
/// tls.minimumVersion = .tls1_3
/// ```
///
/// The defaults trust the system's authorities, verify both the chain and the host name, and show
/// no certificate.
public struct TLSSettings: Sendable, Hashable {
    /// A TLS protocol version.
    public enum Version: Sendable, Hashable, CaseIterable {
        /// TLS 1.0 (RFC 2246); deprecated by RFC 8996, accepted only when asked for.
        case tls1_0
        /// TLS 1.1 (RFC 4346); deprecated by RFC 8996, accepted only when asked for.
        case tls1_1
        /// TLS 1.2 (RFC 5246).
        case tls1_2
        /// TLS 1.3 (RFC 8446).
        case tls1_3
    }

    /// A client certificate and its private key, both PEM files, for servers that ask for one.
    public struct ClientCertificate: Sendable, Hashable {
        /// The certificate (PEM), optionally followed by its intermediate certificates.
        public var certificateFile: String
        /// The private key (PEM) of the certificate.
        public var keyFile: String
        /// The password of an encrypted key; `nil` when the key is not encrypted.
        public var keyPassword: String?

        /// A certificate and key read from the two files.
        public init(certificateFile: String, keyFile: String, keyPassword: String? = nil) {
            self.certificateFile = certificateFile
            self.keyFile = keyFile
            self.keyPassword = keyPassword
        }
    }

    /// Whether the server's certificate must chain to a trusted authority; turn off only to test
    /// against self-signed servers (curl's `CURLOPT_SSL_VERIFYPEER`).
    public var verifiesPeer = true
    /// Whether the certificate must name the host in the URL, checked separately from the chain
    /// (curl's `CURLOPT_SSL_VERIFYHOST`).
    public var verifiesHost = true
    /// A PEM file of the authorities to trust instead of the system's (curl's `--cacert`).
    public var caFile: String?
    /// A directory of PEM certificates named by their subject hashes (`openssl rehash`), trusted as
    /// well as `caFile`, or instead of the system's when `caFile` is `nil` (curl's `--capath`).
    public var caDirectory: String?
    /// The certificate to show a server that asks for one (mutual TLS); `nil` shows none.
    public var clientCertificate: ClientCertificate?
    /// The oldest protocol version accepted; `nil` leaves it to the TLS library (TLS 1.2 with the
    /// libraries Courier uses today).
    public var minimumVersion: Version?
    /// Public-key pins per host (``PublicKeyPins``): a connection to a pinned host must show a
    /// certificate whose key is one of them, besides passing verification. Empty: no pinning.
    public var publicKeyPins = PublicKeyPins()

    /// The defaults: system authorities, chain and host name verified, no client certificate.
    public init() {}

    /// The checks these settings turn off, each a sentence a person should see (as curl's `-k` is
    /// visible in `--verbose`); empty by default. A transport reports them as
    /// ``Transport/disabledSecurityChecks``.
    public var disabledChecks: [String] {
        if !verifiesPeer {
            return ["TLS certificate verification is off: any server can pose as the one asked for"]
        }
        if !verifiesHost {
            return ["TLS host name verification is off: a trusted certificate for any host is accepted"]
        }
        return []
    }
}
