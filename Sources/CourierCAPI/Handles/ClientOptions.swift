package import CCourier
package import Courier
import CourierCInterceptors
import CourierCurl
import HTTPTypes

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A `courier_client_options` read into Swift: every field checked and copied (C may free its
/// strings once `courier_client_new` returns), then made into the client it describes.
package struct ClientOptions {
    package static let function: StaticString = "courier_client_new"

    package var configuration = Client.Configuration()
    var transport: courier_transport
    package var tls = TLSSettings()
    package var proxy = ProxySettings()
    package var httpVersion: courier_http_version
    package var maxConnectionsPerHost = 8
    package var maxConnections = 0
    var maxIdleConnections: Int?
    package var idleTimeout: Duration = .seconds(60)
    package var decompression = true
    var cookieFile: String?
    /// Where connections for chosen hosts go (`resolve`, `connect_to`).
    package var routes: [ConnectionRoute] = []
    var queuesCompletions = false
    var callbackThreads: Int
    /// Whether a field beyond the timeouts and limits was set, so the shared curl transport will not do.
    private var needsOwnTransport = false

    init(_ options: courier_client_options) throws {
        let function = Self.function
        guard options.timeout_ms >= 0, options.connect_timeout_ms > 0 else {
            throw CAPIFailure.invalidArgument(
                "timeout_ms must be 0 or more and connect_timeout_ms more than 0", in: function)
        }
        guard options.max_redirects >= 0, options.max_body_bytes > 0 else {
            throw CAPIFailure.invalidArgument(
                "max_redirects must be 0 or more and max_body_bytes more than 0", in: function)
        }
        guard (1...64).contains(options.callback_threads) else {
            throw CAPIFailure.invalidArgument("callback_threads must be 1 to 64", in: function)
        }
        guard options.transport == COURIER_TRANSPORT_CURL || options.transport == COURIER_TRANSPORT_ASYNC_HTTP_CLIENT
        else {
            throw CAPIFailure.invalidArgument(
                "transport \(options.transport.rawValue) is not a courier_transport", in: function)
        }
        transport = options.transport
        callbackThreads = Int(options.callback_threads)
        configuration.timeout = options.timeout_ms == 0 ? nil : .milliseconds(options.timeout_ms)
        configuration.connectTimeout = .milliseconds(options.connect_timeout_ms)
        configuration.limits.maxRedirects = Int(options.max_redirects)
        configuration.limits.maxBodyBytes = options.max_body_bytes
        if options.follow_redirects == 0 { configuration.redirects = .disabled }

        tls.verifiesPeer = options.verify_tls != 0
        tls.verifiesHost = options.verify_tls != 0 && options.skip_host_verification == 0
        httpVersion = options.http_version
        try readProxy(options)
        try readTLS(options)
        try readConnections(options)
        try readRequests(options)
        try readRoutes(options)
        queuesCompletions = options.queue_completions != 0
        needsOwnTransport =
            needsOwnTransport || !tls.verifiesPeer || !tls.verifiesHost
            || httpVersion != COURIER_HTTP_VERSION_AUTO
    }

    private mutating func readProxy(_ options: courier_client_options) throws {
        let function = Self.function
        if let text = try CInput.optionalString(options.proxy, "proxy", in: function) {
            do {
                proxy.server = try ProxyServer(text)
            } catch {
                throw CAPIFailure.invalidArgument("proxy: \(error.message)", in: function)
            }
        }
        if let list = try CInput.optionalString(options.no_proxy, "no_proxy", in: function) { proxy.noProxy = [list] }
        proxy.readsEnvironment = options.ignore_environment_proxy == 0
        needsOwnTransport = needsOwnTransport || proxy != ProxySettings()
    }

    private mutating func readTLS(_ options: courier_client_options) throws {
        let function = Self.function
        tls.caFile = try CInput.optionalString(options.ca_file, "ca_file", in: function)
        tls.caDirectory = try CInput.optionalString(options.ca_directory, "ca_directory", in: function)
        let certificate = try CInput.optionalString(options.client_certificate, "client_certificate", in: function)
        let key = try CInput.optionalString(options.client_key, "client_key", in: function)
        let password = try CInput.optionalString(options.client_key_password, "client_key_password", in: function)
        switch (certificate, key) {
        case (let certificate?, let key?):
            tls.clientCertificate = .init(certificateFile: certificate, keyFile: key, keyPassword: password)
        case (nil, nil):
            guard password == nil else {
                throw CAPIFailure.invalidArgument(
                    "client_key_password is set without client_certificate and client_key", in: function)
            }
        default:
            throw CAPIFailure.invalidArgument(
                "client_certificate and client_key go together: set both or neither", in: function)
        }
        tls.minimumVersion =
            switch options.min_tls_version {
            case COURIER_TLS_VERSION_DEFAULT: nil
            case COURIER_TLS_VERSION_1_0: .tls1_0
            case COURIER_TLS_VERSION_1_1: .tls1_1
            case COURIER_TLS_VERSION_1_2: .tls1_2
            case COURIER_TLS_VERSION_1_3: .tls1_3
            default:
                throw CAPIFailure.invalidArgument(
                    "min_tls_version \(options.min_tls_version.rawValue) is not a courier_tls_version", in: function)
            }
        guard (0...3).contains(options.http_version.rawValue) else {
            throw CAPIFailure.invalidArgument(
                "http_version \(options.http_version.rawValue) is not a courier_http_version", in: function)
        }
        needsOwnTransport =
            needsOwnTransport || tls.caFile != nil || tls.caDirectory != nil
            || tls.clientCertificate != nil || tls.minimumVersion != nil
    }

    private mutating func readConnections(_ options: courier_client_options) throws {
        let function = Self.function
        switch options.max_connections_per_host {
        case 0: break
        case -1: maxConnectionsPerHost = 0
        case let limit where limit > 0: maxConnectionsPerHost = Int(limit)
        default:
            throw CAPIFailure.invalidArgument(
                "max_connections_per_host must be -1 (no limit), 0 (8) or more", in: function)
        }
        guard options.max_connections >= 0, options.max_idle_connections >= 0, options.idle_timeout_ms >= 0 else {
            throw CAPIFailure.invalidArgument(
                "max_connections, max_idle_connections and idle_timeout_ms must be 0 or more", in: function)
        }
        maxConnections = Int(options.max_connections)
        if options.max_idle_connections > 0 {
            guard transport == COURIER_TRANSPORT_CURL else {
                throw CAPIFailure(
                    COURIER_E_UNSUPPORTED, in: function,
                    detail:
                        "max_idle_connections is curl's: AsyncHTTPClient keeps each idle connection until idle_timeout_ms"
                )
            }
            maxIdleConnections = Int(options.max_idle_connections)
        }
        if options.idle_timeout_ms > 0 { idleTimeout = .milliseconds(options.idle_timeout_ms) }
        decompression = options.disable_decompression == 0
        needsOwnTransport =
            needsOwnTransport || options.max_connections_per_host != 0 || maxConnections != 0
            || maxIdleConnections != nil || options.idle_timeout_ms != 0 || !decompression
    }

    private mutating func readRequests(_ options: courier_client_options) throws {
        let function = Self.function
        if let agent = try CInput.optionalString(options.user_agent, "user_agent", in: function) {
            configuration.defaultHeaders[.userAgent] = try CInput.headerValue(agent, "user_agent", in: function)
        }
        for (index, text) in try Self.strings(options.default_headers, "default_headers").enumerated() {
            let argument = "default_headers[\(index)]"
            guard let colon = text.firstIndex(of: ":"), let name = HTTPField.Name(String(text[..<colon])) else {
                throw CAPIFailure.invalidArgument(
                    "\(argument) is not a \"Name: value\" header field: \(text)", in: function)
            }
            let value = text[text.index(after: colon)...].trimmingWhitespace()
            configuration.defaultHeaders.append(
                HTTPField(name: name, value: try CInput.headerValue(value, argument, in: function)))
        }
        cookieFile = try CInput.optionalString(options.cookie_file, "cookie_file", in: function)
        if let cookieFile {
            do {
                configuration.cookieJar =
                    FileManager.default.fileExists(atPath: cookieFile)
                    ? try CookieJar(contentsOf: cookieFile) : CookieJar()
            } catch {
                throw CAPIFailure.invalidArgument(
                    "cookie_file \(cookieFile) cannot be read: \(TerminalSafeText.escaping("\(error)"))", in: function)
            }
        } else if options.keep_cookies != 0 {
            configuration.cookieJar = CookieJar()
        }
        if let path = try CInput.optionalString(options.unix_socket_path, "unix_socket_path", in: function) {
            guard path.utf8.count <= 107 else {
                throw CAPIFailure.invalidArgument(
                    "unix_socket_path is \(path.utf8.count) bytes; a socket address holds 107", in: function)
            }
            configuration.unixSocketPath = path
        }
        if options.use_netrc != 0 {
            let file = try CInput.optionalString(options.netrc_file, "netrc_file", in: function)
            do {
                if let file {
                    configuration.netrc =
                        FileManager.default.fileExists(atPath: file) ? try Netrc(contentsOf: file) : nil
                } else {
                    configuration.netrc = try Netrc.standard()
                }
            } catch {
                throw CAPIFailure.invalidArgument("use_netrc: \(error.message)", in: function)
            }
        }
    }

    /// The routes and pins, each entry checked as curl's syntax.
    private mutating func readRoutes(_ options: courier_client_options) throws {
        let function = Self.function
        for (index, text) in try Self.strings(options.resolve, "resolve").enumerated() {
            do {
                routes.append(try ConnectionRoute(resolve: text))
            } catch {
                throw CAPIFailure.invalidArgument("resolve[\(index)]: \(error.message)", in: function)
            }
        }
        for (index, text) in try Self.strings(options.connect_to, "connect_to").enumerated() {
            do {
                routes.append(try ConnectionRoute(connectTo: text))
            } catch {
                throw CAPIFailure.invalidArgument("connect_to[\(index)]: \(error.message)", in: function)
            }
        }
        for (index, entry) in try Self.strings(options.pinned_public_keys, "pinned_public_keys").enumerated() {
            do {
                try tls.publicKeyPins.pin(entry: entry)
            } catch {
                throw CAPIFailure.invalidArgument("pinned_public_keys[\(index)]: \(error.message)", in: function)
            }
        }
        needsOwnTransport = needsOwnTransport || !routes.isEmpty || !tls.publicKeyPins.isEmpty
    }

    /// The strings of a NULL-terminated array, each checked as UTF-8; none for a NULL array.
    private static func strings(_ list: UnsafePointer<UnsafePointer<CChar>?>?, _ name: String) throws -> [String] {
        guard var cursor = list else { return [] }
        var strings: [String] = []
        while let pointer = cursor.pointee {
            strings.append(try CInput.string(pointer, "\(name)[\(strings.count)]", in: function))
            cursor += 1
        }
        return strings
    }

    /// The client these options describe, with the transport, threads and queue it owns.
    func makeClient() throws -> ClientBox {
        let transport: any Transport
        var shutdown: (@Sendable () async -> Void)?
        if self.transport == COURIER_TRANSPORT_CURL {
            // The shared transport read the environment when it was first used; a client whose
            // route depends on the environment gets its own, which reads it now, as documented.
            let routesAlike = !ProxyRouter(proxy).mayUseProxy && !CurlTransport.shared.mayUseProxy
            if needsOwnTransport || !routesAlike {
                let created = CurlTransport(configuration: curlConfiguration())
                shutdown = { await created.shutdown() }
                transport = created
            } else {
                transport = CurlTransport.shared
            }
        } else {
            guard let factory = OptionalTransport.asyncHTTPClient else {
                throw CAPIFailure(
                    COURIER_E_UNSUPPORTED,
                    "\(Self.function): this libcourier was built without the AsyncHTTPClient transport (it carries "
                        + "libcurl's only); install the library built with it (scripts/build-libcourier.sh "
                        + "--with-async-http-client) or use COURIER_TRANSPORT_CURL")
            }
            (transport, shutdown) = try factory.make(self)
        }
        let queue = queuesCompletions ? try CompletionQueue() : nil
        let pool = CallbackPool(threads: callbackThreads, name: "courier-send")
        return ClientBox(
            client: Client(transport: transport, configuration: configuration),
            pool: pool, completionQueue: queue, cookieFile: cookieFile, shutdownOwnedTransport: shutdown)
    }

    /// The curl transport's settings. Unset, `max_idle_connections` keeps the transport's default,
    /// which follows the per-host limit (`CurlTransport.Configuration.maxIdleConnections`): with a
    /// fixed 32, the benchmark measured 86 against 36 µs of CPU per request at 256 in flight.
    func curlConfiguration() -> CurlTransport.Configuration {
        var curl = CurlTransport.Configuration()
        curl.tls = tls
        curl.proxy = proxy
        curl.httpVersion =
            switch httpVersion {
            case COURIER_HTTP_VERSION_1_1: .http1_1
            case COURIER_HTTP_VERSION_2: .http2
            case COURIER_HTTP_VERSION_2_PRIOR_KNOWLEDGE: .http2PriorKnowledge
            default: .automatic
            }
        curl.maxConnectionsPerHost = maxConnectionsPerHost
        curl.maxConnections = maxConnections
        if let maxIdleConnections { curl.maxIdleConnections = maxIdleConnections }
        curl.idleTimeout = idleTimeout
        curl.decompression = decompression
        curl.routes = routes
        return curl
    }
}
