import Foundation
import Testing

@testable import Courier

/// Which proxy a request goes through: proxy URLs as curl takes them, `NO_PROXY` as curl 7.86+
/// reads it, and the environment's variables in curl's order; no network.
@Suite struct ProxyRoutingTests {
    @Test func aProxyURLIsReadAsCurlReadsItWithCurlsDefaultPorts() throws {
        let full = try ProxyServer("http://alice:s%40cret@proxy.internal:3128")
        #expect(
            full == ProxyServer(kind: .http, host: "proxy.internal", port: 3128, username: "alice", password: "s@cret"))
        #expect(try ProxyServer("proxy.internal") == ProxyServer(kind: .http, host: "proxy.internal", port: 1080))
        #expect(try ProxyServer("https://proxy.internal").port == 443)
        #expect(try ProxyServer("socks5h://[::1]:9050") == ProxyServer(kind: .socks5h, host: "::1", port: 9050))
        #expect(try ProxyServer("socks5h://[::1]:9050").address == "socks5h://[::1]:9050")
    }

    @Test func aProxyNeverShowsItsCredentials() throws {
        let proxy = try ProxyServer("http://alice:hunter2@proxy:3128")
        #expect(proxy.description == "http://***@proxy:3128")
        #expect(!"\(proxy)".contains("hunter2") && !String(reflecting: proxy.description).contains("alice"))
        for bad in [
            "ftp://alice:hunter2@proxy:21", "http://alice:hunter2@proxy:3128/path", "http://alice:hunter2@:3128",
        ] {
            let error = #expect(throws: CourierError.self) { try ProxyServer(bad) }
            #expect(error?.code == .invalidRequest)
            #expect(error.map { !$0.description.contains("hunter2") } == true, "\(bad)")
        }
    }

    @Test(arguments: [
        ("example.com", "example.com", true), ("example.com", "api.example.com", true),
        (".example.com", "example.com", true), (".example.com", "a.b.example.com", true),
        ("example.com", "badexample.com", false), ("EXAMPLE.com", "Api.Example.COM.", true),
        ("*", "anything.at.all", true), ("localhost, 127.0.0.1", "localhost", true),
        ("127.0.0.1", "127.0.0.1", true), ("127.0.0.1", "127.0.0.2", false),
        ("10.0.0.0/8", "10.200.3.4", true), ("10.0.0.0/8", "11.0.0.1", false),
        ("192.168.1.0/25", "192.168.1.127", true), ("192.168.1.0/25", "192.168.1.128", false),
        ("::1", "[::1]", true), ("[::1]", "::1", true), ("fd00::/8", "[fd12:3456::1]", true),
        ("fd00::/8", "[fe80::1]", false), ("1.2.3.4", "host.1.2.3.4", false),
        ("example.com:8080", "example.com", false), ("", "example.com", false),
    ])
    func noProxyMatchesAsCurlDoes(list: String, host: String, bypasses: Bool) {
        #expect(NoProxyRule(list).bypasses(host) == bypasses, "\(list) vs \(host)")
    }

    @Test func theEnvironmentIsReadInCurlsOrderWithHTTPProxyOnlyInLowerCase() throws {
        let environment = [
            "HTTP_PROXY": "http://ignored:1", "HTTPS_PROXY": "http://secure:2", "all_proxy": "http://all:3",
            "NO_PROXY": "internal.example",
        ]
        let router = ProxyRouter(ProxySettings(), environment: environment)
        #expect(try router.proxy(for: URL(string: "http://example.com/")!)?.host == "all")
        #expect(try router.proxy(for: URL(string: "https://example.com/")!)?.host == "secure")
        #expect(try router.proxy(for: URL(string: "https://api.internal.example/")!) == nil)

        let lower = ProxyRouter(
            ProxySettings(), environment: ["http_proxy": "low:8080", "https_proxy": "", "ALL_PROXY": "up:9"])
        #expect(try lower.proxy(for: URL(string: "http://example.com/")!) == ProxyServer(host: "low", port: 8080))
        #expect(try lower.proxy(for: URL(string: "https://example.com/")!)?.host == "up", "an empty variable is unset")
    }

    @Test func anExplicitServerWinsOverTheEnvironmentWhoseNoProxyStillApplies() throws {
        var settings = ProxySettings()
        settings.server = ProxyServer(host: "explicit", port: 3128)
        let router = ProxyRouter(settings, environment: ["http_proxy": "env:1", "no_proxy": "direct.example"])
        #expect(try router.proxy(for: URL(string: "http://example.com/")!)?.host == "explicit")
        #expect(try router.proxy(for: URL(string: "http://direct.example/")!) == nil)
        let listed = ProxyRouter(
            ProxySettings(server: settings.server, noProxy: ["example.com"]), environment: ["no_proxy": "other"])
        #expect(try listed.proxy(for: URL(string: "http://www.example.com/")!) == nil)
        #expect(try listed.proxy(for: URL(string: "http://other/")!)?.host == "explicit", "the environment is not read")
    }

    @Test func aProxyPerSchemeOverridesTheServerAndTheEnvironmentForThatSchemeOnly() throws {
        var settings = ProxySettings()
        settings.servers["https"] = ProxyServer(host: "secure", port: 443)
        let router = ProxyRouter(settings, environment: ["http_proxy": "env:1", "https_proxy": "envs:2"])
        #expect(try router.proxy(for: URL(string: "https://example.com/")!)?.host == "secure")
        #expect(
            try router.proxy(for: URL(string: "http://example.com/")!)?.host == "env",
            "http still reads the environment")
    }

    @Test func turningTheEnvironmentOffOrSayingNoneGoesDirect() throws {
        var off = ProxySettings()
        off.readsEnvironment = false
        #expect(!ProxyRouter(off, environment: ["http_proxy": "env:1"]).mayUseProxy)
        #expect(!ProxyRouter(.none, environment: ["https_proxy": "env:1"]).mayUseProxy)
        #expect(!ProxyRouter(ProxySettings(), environment: [:]).mayUseProxy)
    }

    @Test func aVariableThatDoesNotParseFailsTheRequestsItRoutesNamingItWithoutCredentials() throws {
        let router = ProxyRouter(ProxySettings(), environment: ["https_proxy": "gopher://bob:pa55@proxy:70"])
        #expect(try router.proxy(for: URL(string: "http://example.com/")!) == nil)
        let error = #expect(throws: CourierError.self) { try router.proxy(for: URL(string: "https://example.com/")!) }
        #expect(error?.message.hasPrefix("https_proxy: ") == true)
        #expect(error.map { !$0.description.contains("pa55") } == true)
    }
}
