import Courier
import CourierTestServer
import Foundation
import Testing

/// A client's cookie jar on both transports, against the test server's cookie routes: a cookie
/// set by a redirect on the way is kept and sent to where it leads, deleted by an expiry, and
/// carried across a restart through the cookie file.
@Suite("Transport conformance: cookies")
struct CookieConformanceTests {
    /// The cookies `/cookies` saw.
    struct Seen: Decodable { var cookies: [String: String] }

    @Test(arguments: TransportUnderTest.all)
    func cookiesSetOnARedirectAreSentOnwardKeptAndDeleted(transport: TransportUnderTest) async throws {
        var configuration = Client.Configuration()
        configuration.cookieJar = CookieJar()
        try await transport.withClient(configuration: configuration) { client, server in
            let set = try await client.send(try server.request("/cookies/set?flavour=oat&size=large"))
            #expect(try JSONDecoder().decode(Seen.self, from: set.body).cookies == ["flavour": "oat", "size": "large"])
            let later = try await client.send(try server.request("/cookies") { Cookie("mine", "1") })
            #expect(
                try JSONDecoder().decode(Seen.self, from: later.body).cookies == [
                    "mine": "1", "flavour": "oat", "size": "large",
                ])
            let deleted = try await client.send(try server.request("/cookies/delete?flavour"))
            #expect(try JSONDecoder().decode(Seen.self, from: deleted.body).cookies == ["size": "large"])

            let file = FileManager.default.temporaryDirectory.appendingPathComponent("courier-jar-\(UUID()).txt").path
            defer { try? FileManager.default.removeItem(atPath: file) }
            try configuration.cookieJar?.save(to: file)
            var restarted = Client.Configuration()
            restarted.cookieJar = try CookieJar(contentsOf: file)
            let again = Client(transport: client.transport, configuration: restarted)
            let resumed = try await again.send(try server.request("/cookies"))
            #expect(try JSONDecoder().decode(Seen.self, from: resumed.body).cookies == ["size": "large"])
        }
    }

    @Test(arguments: TransportUnderTest.all)
    func withoutAJarNoCookieIsKept(transport: TransportUnderTest) async throws {
        try await transport.withClient { client, server in
            let set = try await client.send(try server.request("/cookies/set?flavour=oat"))
            #expect(try JSONDecoder().decode(Seen.self, from: set.body).cookies == [:])
        }
    }
}
