import AsyncHTTPClient
import CCourier
import Courier
import CourierAsyncHTTPClient
import CourierCAPI
import CourierCInterceptors

/// COURIER_TRANSPORT_ASYNC_HTTP_CLIENT, for the library variant that links this module: the C
/// library finds this function at link time (see `CCourierHooks`) and makes its clients'
/// AsyncHTTPClient transports with it.
@_cdecl("ccourier_async_http_client_factory_definition")
public func asyncHTTPClientFactoryDefinition() -> UnsafeMutableRawPointer {
    Unmanaged.passUnretained(AsyncHTTPClientFactory.shared).toOpaque()
}

/// Makes an AsyncHTTPClient transport from a C client's options.
enum AsyncHTTPClientFactory {
    static let shared = OptionalTransport { options in
        let transport = AsyncHTTPClientTransport(configuration: try configuration(from: options))
        return (transport, { try? await transport.shutdown() })
    }

    static func configuration(from options: ClientOptions) throws -> AsyncHTTPClientTransport.Configuration {
        var nio = AsyncHTTPClientTransport.Configuration()
        nio.tls = options.tls
        nio.proxy = options.proxy
        nio.connectTimeout = options.configuration.connectTimeout
        switch options.httpVersion {
        case COURIER_HTTP_VERSION_1_1:
            nio.httpVersion = .http1Only
        case COURIER_HTTP_VERSION_2_PRIOR_KNOWLEDGE:
            throw CAPIFailure(
                COURIER_E_UNSUPPORTED,
                "\(ClientOptions.function): AsyncHTTPClient does not speak HTTP/2 with prior knowledge; use COURIER_TRANSPORT_CURL"
            )
        default:
            nio.httpVersion = .automatic
        }
        nio.maxConnectionsPerHost = options.maxConnectionsPerHost
        nio.maxConnections = options.maxConnections
        nio.idleTimeout = options.idleTimeout
        nio.decompressesResponses = options.decompression
        nio.routes = options.routes
        if let problem = nio.routingProblem() {
            throw CAPIFailure(COURIER_E_UNSUPPORTED, "\(ClientOptions.function): \(problem.message)")
        }
        return nio
    }
}
