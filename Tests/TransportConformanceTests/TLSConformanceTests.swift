import Courier
import Foundation
import Testing
import TestProcesses

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

    /// Sends one GET to nginx serving `certificate` through `transport` set up with `tls`.
    private func outcome(_ transport: TransportUnderTest, serving certificate: (certificate: URL, key: URL),
                         _ tls: TransportSettings) async throws -> Outcome {
        try await NginxServer.serving(listen: "ssl http2", body: "$server_protocol", tls: certificate) { nginx in
            let request = try Request { BaseURL(nginx.baseURL); Timeout(.seconds(20)) }
            // Shut down on every path: an AsyncHTTPClient dropped without a shutdown traps.
            let made = transport.makeWith(tls)
            let result: Result<String, any Error>
            do { result = .success(try await Client(transport: made).send(request).text) } catch { result = .failure(error) }
            await transport.shutdown(made)
            switch result {
            case .success(let text): return .answered(text)
            case .failure(let error as CourierError): return .failed(error.code)
            case .failure(let error): throw error
            }
        }
    }

    @Test(arguments: TransportUnderTest.all)
    func aTrustedCertificateForTheHostIsAcceptedOverHTTP2(transport: TransportUnderTest) async throws {
        let certificates = try await TestCertificates.make()
        defer { certificates.remove() }
        let result = try await outcome(transport, serving: certificates.loopback, TransportSettings(caInfo: certificates.authority.path))
        #expect(result == .answered("HTTP/2.0"))
    }

    @Test(arguments: TransportUnderTest.all)
    func aCertificateFromAnUntrustedAuthorityIsRefused(transport: TransportUnderTest) async throws {
        let certificates = try await TestCertificates.make()
        defer { certificates.remove() }
        #expect(try await outcome(transport, serving: certificates.loopback, TransportSettings()) == .failed(.insecureConnection))
    }

    @Test(arguments: TransportUnderTest.all)
    func aTrustedCertificateForAnotherHostIsRefused(transport: TransportUnderTest) async throws {
        let certificates = try await TestCertificates.make()
        defer { certificates.remove() }
        let result = try await outcome(transport, serving: certificates.otherHost, TransportSettings(caInfo: certificates.authority.path))
        #expect(result == .failed(.insecureConnection))
    }

    @Test(arguments: TransportUnderTest.all)
    func hostNameVerificationOffAcceptsAnotherHostButStillChecksTheChain(transport: TransportUnderTest) async throws {
        let certificates = try await TestCertificates.make()
        defer { certificates.remove() }
        let otherHost = try await outcome(transport, serving: certificates.otherHost,
                                          TransportSettings(caInfo: certificates.authority.path, verifyHost: false))
        #expect(otherHost == .answered("HTTP/2.0"))
        let untrusted = try await outcome(transport, serving: certificates.otherHost, TransportSettings(verifyHost: false))
        #expect(untrusted == .failed(.insecureConnection))
    }

    @Test(arguments: TransportUnderTest.all)
    func verificationOffAcceptsAnUntrustedAuthorityAndAnotherHost(transport: TransportUnderTest) async throws {
        let certificates = try await TestCertificates.make()
        defer { certificates.remove() }
        let off = TransportSettings(verifyPeer: false, verifyHost: false)
        #expect(try await outcome(transport, serving: certificates.loopback, off) == .answered("HTTP/2.0"))
        #expect(try await outcome(transport, serving: certificates.otherHost, off) == .answered("HTTP/2.0"))
    }
}
