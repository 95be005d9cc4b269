import Courier
import Foundation
import Testing

@testable import CourierURLSession

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Settings URLSession cannot honour are refused by name when the transport is made, never ignored.
@Suite struct URLSessionSettingsTests {
    /// The refusal `settings` get, or `nil` when the transport is made.
    private func refusal(_ change: (inout URLSessionTransport.Settings) -> Void) -> CourierError? {
        var settings = URLSessionTransport.Settings()
        change(&settings)
        do {
            let transport = try URLSessionTransport(settings: settings)
            transport.shutdown()
            return nil
        } catch {
            return error
        }
    }

    @Test func theDefaultsAreAccepted() {
        #expect(refusal { _ in } == nil)
        #expect(refusal { $0.maxConnectionsPerHost = 4 } == nil)
    }

    /// Settings with the one named changed to a value URLSession cannot honour on any platform.
    private static func unsupported(_ setting: String) -> URLSessionTransport.Settings {
        var settings = URLSessionTransport.Settings()
        switch setting {
        case "tls.caFile": settings.tls.caFile = "/tmp/ca.pem"
        case "tls.caDirectory": settings.tls.caDirectory = "/etc/ssl/certs"
        case "tls.clientCertificate": settings.tls.clientCertificate = .init(certificateFile: "c.pem", keyFile: "k.pem")
        case "tls.verifiesHost": settings.tls.verifiesHost = false
        case "maxConnections": settings.maxConnections = 10
        case "idleTimeout": settings.idleTimeout = .seconds(5)
        case "proxy.noProxy": settings.proxy.noProxy = ["localhost"]
        default: Issue.record("no such setting: \(setting)")
        }
        return settings
    }

    @Test(arguments: [
        "tls.caFile", "tls.caDirectory", "tls.clientCertificate", "tls.verifiesHost", "maxConnections", "idleTimeout",
        "proxy.noProxy",
    ])
    func aSettingURLSessionLacksIsRefusedByName(setting: String) throws {
        let settings = Self.unsupported(setting)
        let error = try #require(refusal { $0 = settings })
        #expect(error.code == .invalidRequest)
        #expect(error.message.contains(setting), "\(error.message)")
    }

    #if !canImport(Darwin)
    @Test func noProxyIsRefusedOnlyWhenTheEnvironmentNamesOne() {
        let error = refusal { $0.proxy = .none }
        if let variable = URLSessionTransport.Settings.proxyVariableSet() {
            #expect(error?.message.contains("proxy.readsEnvironment") == true)
            #expect(error?.message.contains(variable) == true)
        } else {
            #expect(error == nil)
        }
    }

    @Test func linuxRefusesWhatFoundationNetworkingCannotSet() throws {
        let unverified = try #require(refusal { $0.tls.verifiesPeer = false })
        #expect(unverified.message.contains("tls.verifiesPeer"))
        let minimum = try #require(refusal { $0.tls.minimumVersion = .tls1_2 })
        #expect(minimum.message.contains("tls.minimumVersion"))
        let proxy = try #require(refusal { $0.proxy.server = try? ProxyServer("http://127.0.0.1:3128") })
        #expect(proxy.message.contains("proxy.server"))
    }
    #endif
}
