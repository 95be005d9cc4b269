import Courier
import CourierTestServer
import Foundation
import HTTPTypes
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

    /// A server flooding the jar (60 responses of 200 new cookies each, 12,000 in all) leaves it
    /// holding one domain's limit, and every later request head small.
    @Test(arguments: TransportUnderTest.all)
    func aServerFloodingTheJarLeavesItWithinItsLimits(transport: TransportUnderTest) async throws {
        var configuration = Client.Configuration()
        let jar = CookieJar()
        configuration.cookieJar = jar
        try await transport.withClient(configuration: configuration) { client, server in
            for round in 0..<60 {
                let response = try await client.send(try server.request("/hostile/cookies?count=200&prefix=r\(round)"))
                #expect(response.status == .ok)
            }
            #expect(jar.cookies.count == 50)
            #expect(Set(jar.cookies.map(\.name)) == Set((150..<200).map { "r59-\($0)" }))
            let echoed = try await client.send(try server.request("/headers"))
            struct Echo: Decodable { var headers: [String: String] }
            let cookie = try JSONDecoder().decode(Echo.self, from: echoed.body).headers["Cookie"] ?? ""
            #expect(cookie.utf8.count <= jar.limits.maxCookieHeaderBytes)
            #expect(cookie.hasPrefix("r59-150="))
        }
    }
}
