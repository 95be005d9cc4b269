public import Foundation

/// A throwaway certificate authority and certificates it signed, made with `openssl`, for TLS tests
/// against nginx: one server certificate names 127.0.0.1, another a different host, so peer
/// verification and host-name verification can be told apart, and a client certificate for mutual TLS.
public struct TestCertificates: Sendable {
    /// The folder that holds every file; ``remove()`` deletes it.
    public let directory: URL

    /// The authority's certificate (PEM): the trust root a client is given.
    public var authority: URL { directory.appendingPathComponent("ca.pem") }
    /// A certificate and key for `127.0.0.1` (an IP subject alternative name), signed by the authority.
    public var loopback: (certificate: URL, key: URL) { leaf("loopback") }
    /// A certificate and key for `other.example` only, signed by the authority: right chain, wrong host.
    public var otherHost: (certificate: URL, key: URL) { leaf("other-host") }
    /// A client certificate (`CN=Courier Test Client`, for client authentication) and its key,
    /// signed by the authority, for mutual TLS.
    public var client: (certificate: URL, key: URL) { leaf("client") }
    /// The client certificate's key encrypted with AES-256 under ``encryptedClientKeyPassword``.
    public var encryptedClientKey: URL { directory.appendingPathComponent("client-encrypted.key") }
    /// The password of ``encryptedClientKey``.
    public let encryptedClientKeyPassword = "courier secret"
    /// A directory holding only the authority's certificate, named by its subject hash (`<hash>.0`),
    /// as OpenSSL's `CApath` and curl's `--capath` read it.
    public var authorityDirectory: URL { directory.appendingPathComponent("ca-directory") }

    /// Makes the authority and both server certificates (elliptic-curve keys: fast to make).
    public static func make() async throws -> TestCertificates {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("courier-ca-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let made = TestCertificates(directory: directory)
        do {
            try await made.openssl([
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                "-days", "2", "-subj", "/CN=Courier Test CA",
                "-addext", "basicConstraints=critical,CA:TRUE",
                "-addext", "keyUsage=critical,keyCertSign,cRLSign",
                "-keyout", directory.appendingPathComponent("ca.key").path, "-out", made.authority.path,
            ])
            try await made.sign("loopback", commonName: "127.0.0.1", alternativeNames: "IP:127.0.0.1")
            try await made.sign("other-host", commonName: "other.example", alternativeNames: "DNS:other.example")
            try await made.sign("client", commonName: "Courier Test Client", alternativeNames: nil)
            try await made.makeAuthorityDirectory()
            try await made.openssl([
                "pkey", "-in", made.client.key.path, "-aes256", "-passout", "pass:\(made.encryptedClientKeyPassword)",
                "-out", made.encryptedClientKey.path,
            ])
        } catch {
            made.remove()
            throw error
        }
        return made
    }

    /// The public-key pin of `certificate`: `sha256//` and the base64 SHA-256 of its key's DER
    /// `SubjectPublicKeyInfo`, as curl's `--pinnedpubkey` and OkHttp's `CertificatePinner` take it.
    public func publicKeyPin(of certificate: URL) async throws -> String {
        let stem = directory.appendingPathComponent("pin-\(UUID())").path
        try await openssl(["x509", "-in", certificate.path, "-pubkey", "-noout", "-out", stem + ".pem"])
        try await openssl(["pkey", "-pubin", "-in", stem + ".pem", "-outform", "der", "-out", stem + ".der"])
        try await openssl(["dgst", "-sha256", "-binary", "-out", stem + ".sha256", stem + ".der"])
        return "sha256//" + (try Data(contentsOf: URL(fileURLWithPath: stem + ".sha256"))).base64EncodedString()
    }

    /// Deletes every file.
    public func remove() { try? FileManager.default.removeItem(at: directory) }

    private func leaf(_ name: String) -> (certificate: URL, key: URL) {
        (directory.appendingPathComponent("\(name).pem"), directory.appendingPathComponent("\(name).key"))
    }

    /// Signs a leaf: a server certificate for `alternativeNames`, or a client certificate when `nil`.
    private func sign(_ name: String, commonName: String, alternativeNames: String?) async throws {
        let (certificate, key) = leaf(name)
        let request = directory.appendingPathComponent("\(name).csr")
        let extensions = directory.appendingPathComponent("\(name).ext")
        let usage =
            alternativeNames.map { "extendedKeyUsage=serverAuth\nsubjectAltName=\($0)\n" }
            ?? "extendedKeyUsage=clientAuth\n"
        try "basicConstraints=CA:FALSE\n\(usage)".write(to: extensions, atomically: true, encoding: .utf8)
        try await openssl([
            "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-subj", "/CN=\(commonName)", "-keyout", key.path, "-out", request.path,
        ])
        try await openssl([
            "x509", "-req", "-in", request.path, "-CA", authority.path,
            "-CAkey", directory.appendingPathComponent("ca.key").path, "-CAcreateserial",
            "-days", "2", "-extfile", extensions.path, "-out", certificate.path,
        ])
    }

    private func makeAuthorityDirectory() async throws {
        let hash = try await openssl(["x509", "-hash", "-noout", "-in", authority.path])
            .trimmingCharacters(in: .whitespacesAndNewlines)
        try FileManager.default.createDirectory(at: authorityDirectory, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: authority, to: authorityDirectory.appendingPathComponent("\(hash).0"))
    }

    @discardableResult
    private func openssl(_ arguments: [String]) async throws -> String {
        let run = try await ChildProcess.run(
            "openssl", arguments, directory: directory, mergingErrorIntoOutput: true,
            timeout: .seconds(60))
        guard run.status == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: run.description])
        }
        return run.output
    }
}
