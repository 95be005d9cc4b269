import Courier
import Foundation
import HTTPTypes
import TestProcesses
import Testing

/// TLS on both transports against nginx, with certificates from a throwaway authority: the chain
/// (peer verification) and the host name (host-name verification) are checked separately, each can
/// be turned off on its own, and HTTP/2 is negotiated over TLS.
@Suite("Transport conformance: TLS", .timeLimit(.minutes(2)))
struct TLSConformanceTests {
    /// What one send over TLS ended with: the protocol nginx saw, or the error's code.
    enum Outcome: Equatable, CustomStringConvertible {
        case answered(String)
        case failed(CourierError.Code)

        var description: String {
            switch self {
            case .answered(let text): "answered \(text)"
            case .failed(let code): "failed \(code)"
            }
        }
    }

    /// nginx directives that make it ask for a client certificate signed by the test authority.
    private static func requiresClientCertificate(_ certificates: TestCertificates) -> String {
        "ssl_verify_client on; ssl_client_certificate \(certificates.authority.path);"
    }

    /// Sends one GET to nginx serving `certificate` (with more server `directives`) through
    /// `transport` set up with `tls`; nginx answers with `body`, and a status other than 200 is
    /// the outcome's text (`status 400`).
    private func outcome(
        _ transport: TransportUnderTest, serving certificate: (certificate: URL, key: URL),
        _ tls: TransportSettings, body: String = "$server_protocol",
        directives: String = ""
    ) async throws -> Outcome {
        try await NginxServer.serving(listen: "ssl http2", body: body, tls: certificate, directives: directives) {
            nginx in
            let request = try Request {
                BaseURL(nginx.baseURL)
                Timeout(.seconds(20))
            }
            // Shut down on every path: an AsyncHTTPClient dropped without a shutdown traps.
            let made = transport.makeWith(tls)
            let result: Result<String, any Error>
            do {
                let response = try await Client(transport: made).send(request)
                let text = response.text
                result = .success(response.status == .ok ? text : "status \(response.status.code)")
            } catch {
                result = .failure(error)
            }
            await transport.shutdown(made)
            switch result {
            case .success(let text): return .answered(text)
            case .failure(let error as CourierError): return .failed(error.code)
            case .failure(let error): throw error
            }
        }
    }

    @Test(arguments: TransportUnderTest.all(with: .customTrust))
    func aTrustedCertificateForTheHostIsAcceptedOverHTTP2(transport: TransportUnderTest) async throws {
        let certificates = try await TestCertificates.make()
        defer { certificates.remove() }
        let result = try await outcome(
            transport, serving: certificates.loopback, TransportSettings(caInfo: certificates.authority.path))
        #expect(result == .answered("HTTP/2.0"))
    }

    /// Over TLS, curl measures the handshake and names the version; a second exchange on the same
    /// connection has no handshake. The other transports cannot see the handshake: `nil`, not 0.
    @Test(arguments: TransportUnderTest.all(with: .customTrust))
    func aTLSExchangeReportsItsHandshakeAndVersionWhereMeasured(transport: TransportUnderTest) async throws {
        let certificates = try await TestCertificates.make()
        defer { certificates.remove() }
        try await NginxServer.serving(listen: "ssl", body: "ok", tls: certificates.loopback) { nginx in
            let made = transport.makeWith(TransportSettings(caInfo: certificates.authority.path))
            let result: Result<(ResponseMetrics, ResponseMetrics), any Error>
            do {
                let client = Client(transport: made)
                let request = try Request {
                    BaseURL(nginx.baseURL)
                    Timeout(.seconds(20))
                }
                result = .success((try await client.send(request).metrics, try await client.send(request).metrics))
            } catch {
                result = .failure(error)
            }
            // Shut down on every path: an AsyncHTTPClient dropped without a shutdown traps.
            await transport.shutdown(made)
            let (first, second) = try result.get()
            if transport.description == "curl" {
                #expect(try #require(first.tlsHandshake) > .zero)
                #expect(first.tlsVersion?.hasPrefix("TLSv1.") == true, "\(first.tlsVersion ?? "nil")")
                #expect(second.reusedConnection == true && second.tlsHandshake == nil)
                #expect(second.tlsVersion == first.tlsVersion, "the reused connection's version")
            } else {
                #expect(first.tlsHandshake == nil && first.tlsVersion == nil)
                #expect(try #require(first.total) > .zero)
            }
        }
    }

    @Test(arguments: TransportUnderTest.all)
    func aCertificateFromAnUntrustedAuthorityIsRefused(transport: TransportUnderTest) async throws {
        let certificates = try await TestCertificates.make()
        defer { certificates.remove() }
        #expect(
            try await outcome(transport, serving: certificates.loopback, TransportSettings())
                == .failed(.insecureConnection))
    }

    @Test(arguments: TransportUnderTest.all(with: .customTrust))
    func aTrustedCertificateForAnotherHostIsRefused(transport: TransportUnderTest) async throws {
        let certificates = try await TestCertificates.make()
        defer { certificates.remove() }
        let result = try await outcome(
            transport, serving: certificates.otherHost, TransportSettings(caInfo: certificates.authority.path))
        #expect(result == .failed(.insecureConnection))
    }

    @Test(arguments: TransportUnderTest.all(with: .customTrust))
    func hostNameVerificationOffAcceptsAnotherHostButStillChecksTheChain(transport: TransportUnderTest) async throws {
        let certificates = try await TestCertificates.make()
        defer { certificates.remove() }
        let otherHost = try await outcome(
            transport, serving: certificates.otherHost,
            TransportSettings(caInfo: certificates.authority.path, verifyHost: false))
        #expect(otherHost == .answered("HTTP/2.0"))
        let untrusted = try await outcome(
            transport, serving: certificates.otherHost, TransportSettings(verifyHost: false))
        #expect(untrusted == .failed(.insecureConnection))
    }

    @Test(arguments: TransportUnderTest.all(with: .customTrust))
    func verificationOffAcceptsAnUntrustedAuthorityAndAnotherHost(transport: TransportUnderTest) async throws {
        let certificates = try await TestCertificates.make()
        defer { certificates.remove() }
        let off = TransportSettings(verifyPeer: false, verifyHost: false)
        #expect(try await outcome(transport, serving: certificates.loopback, off) == .answered("HTTP/2.0"))
        #expect(try await outcome(transport, serving: certificates.otherHost, off) == .answered("HTTP/2.0"))
    }

    /// Trusting a CA directory (`<hash>.0` files, curl's `--capath`) instead of a CA file.
    @Test(arguments: TransportUnderTest.all(with: .customTrust))
    func aHashedCADirectoryIsTrustedLikeACAFile(transport: TransportUnderTest) async throws {
        let certificates = try await TestCertificates.make()
        defer { certificates.remove() }
        var tls = TLSSettings()
        tls.caDirectory = certificates.authorityDirectory.path
        #expect(
            try await outcome(transport, serving: certificates.loopback, TransportSettings(tls: tls))
                == .answered("HTTP/2.0"))
    }

    /// Mutual TLS: nginx with `ssl_verify_client on` sees the client certificate's subject, and
    /// answers 400 to a client that shows none.
    @Test(arguments: TransportUnderTest.all(with: .customTrust))
    func aServerThatAsksForAClientCertificateGetsTheOneConfigured(transport: TransportUnderTest) async throws {
        let certificates = try await TestCertificates.make()
        defer { certificates.remove() }
        let directives = Self.requiresClientCertificate(certificates)
        var tls = TLSSettings()
        tls.caFile = certificates.authority.path
        let anonymous = try await outcome(
            transport, serving: certificates.loopback, TransportSettings(tls: tls),
            body: "$ssl_client_s_dn", directives: directives)
        #expect(anonymous == .answered("status 400"))
        tls.clientCertificate = .init(
            certificateFile: certificates.client.certificate.path, keyFile: certificates.client.key.path)
        let identified = try await outcome(
            transport, serving: certificates.loopback, TransportSettings(tls: tls),
            body: "$ssl_client_s_dn", directives: directives)
        #expect(identified == .answered("CN=Courier Test Client"))
    }

    /// An encrypted client key is read with its password.
    @Test(arguments: TransportUnderTest.all(with: .customTrust))
    func anEncryptedClientKeyIsReadWithItsPassword(transport: TransportUnderTest) async throws {
        let certificates = try await TestCertificates.make()
        defer { certificates.remove() }
        var tls = TLSSettings()
        tls.caFile = certificates.authority.path
        tls.clientCertificate = .init(
            certificateFile: certificates.client.certificate.path,
            keyFile: certificates.encryptedClientKey.path,
            keyPassword: certificates.encryptedClientKeyPassword)
        let identified = try await outcome(
            transport, serving: certificates.loopback, TransportSettings(tls: tls),
            body: "$ssl_client_s_dn",
            directives: Self.requiresClientCertificate(certificates))
        #expect(identified == .answered("CN=Courier Test Client"))
    }

    /// A client certificate file that is not PEM fails the send as a TLS problem, on both transports.
    @Test(arguments: TransportUnderTest.all(with: .customTrust))
    func anUnreadableClientCertificateFailsTheSend(transport: TransportUnderTest) async throws {
        let certificates = try await TestCertificates.make()
        defer { certificates.remove() }
        var tls = TLSSettings()
        tls.caFile = certificates.authority.path
        tls.clientCertificate = .init(
            certificateFile: certificates.directory.appendingPathComponent("missing.pem").path,
            keyFile: certificates.client.key.path)
        let result = try await outcome(
            transport, serving: certificates.loopback, TransportSettings(tls: tls),
            directives: Self.requiresClientCertificate(certificates))
        #expect(result == .failed(.insecureConnection))
    }

    /// A minimum of TLS 1.3 refuses a server that speaks only 1.2, and accepts one that speaks 1.3.
    @Test(arguments: TransportUnderTest.all(with: .customTrust))
    func theMinimumVersionRefusesAnOlderServer(transport: TransportUnderTest) async throws {
        let certificates = try await TestCertificates.make()
        defer { certificates.remove() }
        var tls = TLSSettings()
        tls.caFile = certificates.authority.path
        tls.minimumVersion = .tls1_3
        let old = try await outcome(
            transport, serving: certificates.loopback, TransportSettings(tls: tls),
            body: "$ssl_protocol", directives: "ssl_protocols TLSv1.2;")
        #expect(old == .failed(.insecureConnection))
        let current = try await outcome(
            transport, serving: certificates.loopback, TransportSettings(tls: tls),
            body: "$ssl_protocol", directives: "ssl_protocols TLSv1.3;")
        #expect(current == .answered("TLSv1.3"))
    }
}
