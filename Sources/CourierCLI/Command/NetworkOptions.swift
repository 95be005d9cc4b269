import ArgumentParser
import Courier
import CourierAsyncHTTPClient
import CourierCurl
import Foundation

/// The TLS, proxy and path options, with HTTPie's names: `--verify`, `--cert`, `--cert-key`, `--ssl`,
/// `--proxy`, `--path-as-is`; and curl's `--unix-socket`, `--resolve`, `--connect-to` and `--pinnedpubkey`. Without them the transports keep their defaults (the system's authorities, the
/// environment's proxies as curl reads them).
struct NetworkOptions: ParsableArguments, Sendable {
    /// `--ssl`'s versions, HTTPie's spellings, each the oldest version accepted.
    enum TLSVersionName: String, ExpressibleByArgument, CaseIterable, Sendable {
        case ssl23 = "ssl2.3", tls1, tls1_1 = "tls1.1", tls1_2 = "tls1.2", tls1_3 = "tls1.3"

        var minimum: TLSSettings.Version? {
            switch self {
            case .ssl23: nil
            case .tls1: .tls1_0
            case .tls1_1: .tls1_1
            case .tls1_2: .tls1_2
            case .tls1_3: .tls1_3
            }
        }
    }

    @Option(
        help: ArgumentHelp(
            "Verify the server's certificate: yes (default), no, or a CA bundle file or directory to trust instead of the system's.",
            valueName: "yes|no|path"))
    var verify = "yes"

    @Option(
        help: ArgumentHelp(
            "A client certificate (PEM) for servers that ask for one; the key too, unless --cert-key.",
            valueName: "file"))
    var cert: String?

    @Option(help: ArgumentHelp("The private key (PEM) of --cert.", valueName: "file"))
    var certKey: String?

    @Option(help: ArgumentHelp("The password of an encrypted --cert-key.", valueName: "password"))
    var certKeyPass: String?

    @Option(help: ArgumentHelp("The oldest TLS version accepted.", valueName: "ssl2.3|tls1|tls1.1|tls1.2|tls1.3"))
    var ssl: TLSVersionName?

    @Option(
        help: ArgumentHelp(
            "A proxy for one URL scheme, as HTTPie takes it: http:http://proxy:3128 (repeatable). Without it, http_proxy, https_proxy, all_proxy and no_proxy apply as curl reads them.",
            valueName: "protocol:url"))
    var proxy: [String] = []

    @Flag(help: "Send the URL path's . and .. segments as written (squashed by default: a/../b is b).")
    var pathAsIs = false

    @Option(
        help: ArgumentHelp(
            "Connect to this Unix domain socket instead of the URL's host, as curl's --unix-socket (the URL's path and host still go in the request).",
            valueName: "path"))
    var unixSocket: String?

    @Option(
        help: ArgumentHelp(
            "Connect to this address for host:port, as curl's --resolve, keeping the URL, Host and TLS name (repeatable).",
            valueName: "host:port:address"))
    var resolve: [String] = []

    @Option(
        help: ArgumentHelp(
            "Connect to host2:port2 for host:port, as curl's --connect-to, keeping the URL, Host and TLS name (repeatable).",
            valueName: "host:port:host2:port2"))
    var connectTo: [String] = []

    @Option(
        name: .customLong("pinnedpubkey"),
        help: ArgumentHelp(
            "Accept only a server key with one of these pins (sha256//base64, separated by ;), as curl's --pinnedpubkey; host=pins for one host (repeatable).",
            valueName: "[host=]sha256//…"))
    var pinnedPublicKeys: [String] = []

    init() {}

    func validate() throws {
        _ = try tls()
        _ = try proxies()
        _ = try routes()
        if certKey != nil || certKeyPass != nil, cert == nil {
            throw ValidationError("--cert-key and --cert-key-pass need --cert")
        }
    }

    /// Whether any option differs from the transports' defaults.
    var isDefault: Bool {
        verify.lowercased() == "yes" && cert == nil && ssl == nil && proxy.isEmpty && !pathAsIs && resolve.isEmpty
            && connectTo.isEmpty && pinnedPublicKeys.isEmpty
    }

    /// The routes `--resolve` and `--connect-to` give.
    func routes() throws -> [ConnectionRoute] {
        do {
            return try resolve.map { try ConnectionRoute(resolve: $0) }
                + connectTo.map { try ConnectionRoute(connectTo: $0) }
        } catch let error as CourierError {
            throw ValidationError("\(error.source ?? "--resolve"): \(error.message)")
        }
    }

    /// The TLS settings these options give.
    func tls() throws -> TLSSettings {
        var tls = TLSSettings()
        switch verify.lowercased() {
        case "yes", "true": break
        case "no", "false":
            tls.verifiesPeer = false
            tls.verifiesHost = false
        default:
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: verify, isDirectory: &isDirectory) else {
                throw ValidationError("--verify takes yes, no, or a CA bundle that exists; \(verify) does not")
            }
            if isDirectory.boolValue { tls.caDirectory = verify } else { tls.caFile = verify }
        }
        if let cert {
            tls.clientCertificate = .init(certificateFile: cert, keyFile: certKey ?? cert, keyPassword: certKeyPass)
        }
        tls.minimumVersion = ssl?.minimum
        for entry in pinnedPublicKeys {
            do {
                try tls.publicKeyPins.pin(entry: entry)
            } catch {
                throw ValidationError("--pinnedpubkey: \(error.message)")
            }
        }
        return tls
    }

    /// The proxy settings `--proxy` gives: the environment's, with the schemes given overridden.
    func proxies() throws -> ProxySettings {
        var settings = ProxySettings()
        for argument in proxy {
            guard let colon = argument.firstIndex(of: ":"), case let scheme = argument[..<colon].lowercased(),
                ["http", "https"].contains(scheme)
            else {
                throw ValidationError("--proxy takes http:URL or https:URL, not \(argument)")
            }
            do {
                settings.servers[scheme] = try ProxyServer(String(argument[argument.index(after: colon)...]))
            } catch {
                throw ValidationError("--proxy \(scheme): \(error.message)")
            }
        }
        return settings
    }

    /// A curl transport with these settings.
    func curlTransport() throws -> CurlTransport {
        var configuration = CurlTransport.Configuration()
        configuration.tls = try tls()
        configuration.proxy = try proxies()
        configuration.keepsDotSegments = pathAsIs
        configuration.routes = try routes()
        return CurlTransport(configuration: configuration)
    }

    /// An AsyncHTTPClient configuration with these settings.
    func asyncHTTPClientConfiguration() throws -> AsyncHTTPClientTransport.Configuration {
        var configuration = AsyncHTTPClientTransport.Configuration()
        configuration.tls = try tls()
        configuration.proxy = try proxies()
        configuration.routes = try routes()
        return configuration
    }
}
