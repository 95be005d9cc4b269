import Courier
import Foundation
import TestProcesses
import Testing

/// Public-key pinning against nginx with the test authority's certificates: curl accepts a
/// certificate whose key is pinned (alone or among others) and refuses any other with
/// `insecureConnection`, naming the host and the pins, with verification still on. The other
/// transports have no hook for it and refuse pins by name.
@Suite("Transport conformance: public-key pinning", .timeLimit(.minutes(2)))
struct PublicKeyPinConformanceTests {
    /// One GET to nginx serving the loopback certificate, through `transport` trusting the test
    /// authority with `pins` for 127.0.0.1.
    private func send(
        _ transport: TransportUnderTest, pins: [String], certificates: TestCertificates
    ) async throws -> Result<String, CourierError> {
        try await NginxServer.serving(listen: "ssl", body: "pinned", tls: certificates.loopback) { nginx in
            // URLSession would refuse the CA file before the pins: it gets the pins alone.
            let trusts = transport.lacks[.customTrust] == nil
            var settings = TransportSettings(caInfo: trusts ? certificates.authority.path : nil)
            try settings.tls.publicKeyPins.pin("127.0.0.1", to: pins)
            let made = transport.makeWith(settings)
            let result: Result<String, CourierError>
            do {
                let response = try await Client(transport: made).send(
                    try Request {
                        BaseURL(nginx.baseURL)
                        Timeout(.seconds(20))
                    })
                result = .success(response.text)
            } catch let error as CourierError {
                result = .failure(error)
            } catch {
                await transport.shutdown(made)
                throw error
            }
            await transport.shutdown(made)
            return result
        }
    }

    @Test(arguments: TransportUnderTest.all)
    func onlyACertificateWithAPinnedKeyIsAccepted(transport: TransportUnderTest) async throws {
        let certificates = try await TestCertificates.make()
        defer { certificates.remove() }
        let right = try await certificates.publicKeyPin(of: certificates.loopback.certificate)
        let wrong = try await certificates.publicKeyPin(of: certificates.otherHost.certificate)
        guard transport.description == "curl" else {
            let refusal = try #require(try await send(transport, pins: [right], certificates: certificates).failure)
            #expect(refusal.code == .invalidRequest && refusal.source?.contains("publicKeyPins") == true, "\(refusal)")
            return
        }
        #expect(try await send(transport, pins: [right], certificates: certificates).success == "pinned")
        #expect(try await send(transport, pins: [wrong, right], certificates: certificates).success == "pinned")
        let mismatch = try #require(try await send(transport, pins: [wrong], certificates: certificates).failure)
        #expect(mismatch.code == .insecureConnection)
        #expect(mismatch.message.contains("127.0.0.1") && mismatch.message.contains(wrong), "\(mismatch)")
    }

    @Test func pinsAreCheckedWhenAdded() throws {
        var pins = PublicKeyPins()
        #expect(throws: CourierError.self) { try pins.pin("example.com", to: ["sha1//abc"]) }
        #expect(throws: CourierError.self) { try pins.pin("example.com", to: ["sha256//short"]) }
        #expect(throws: CourierError.self) {
            try pins.pin("", to: ["sha256//" + String(repeating: "A", count: 43) + "="])
        }
        let pin = "sha256//" + Data(repeating: 7, count: 32).base64EncodedString()
        try pins.pin("*.Example.com", to: [pin])
        try pins.pin(entry: "api.example.com=\(pin)")
        #expect(pins.pins(for: "a.example.com") == [pin])
        #expect(pins.pins(for: "a.b.example.com").isEmpty)
        #expect(pins.pins(for: "API.example.com") == [pin])
        #expect(pins.pins(for: "example.com").isEmpty)
        try pins.pin(entry: pin)
        #expect(pins.pins(for: "anything.test") == [pin])
    }
}
