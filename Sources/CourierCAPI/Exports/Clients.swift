public import CCourier
import Courier
import CourierAsyncHTTPClient
import CourierCurl

@c @implementation
public func courier_client_options_init(_ options: UnsafeMutablePointer<courier_client_options>?) {
    guard let options else { return }
    options.pointee = courier_client_options(
        struct_size: MemoryLayout<courier_client_options>.size,
        transport: COURIER_TRANSPORT_CURL,
        timeout_ms: 60_000,
        connect_timeout_ms: 10_000,
        follow_redirects: 1,
        max_redirects: 10,
        max_body_bytes: Int64(Limits().maxBodyBytes),
        verify_tls: 1,
        callback_threads: 2)
}

@c @implementation
public func courier_client_new(_ options: UnsafePointer<courier_client_options>?,
                               _ client: UnsafeMutablePointer<OpaquePointer?>?,
                               _ error: UnsafeMutablePointer<OpaquePointer?>?) -> courier_code {
    reporting(error, #function) {
        guard let client else { throw CAPIFailure.invalidArgument("client is NULL", in: #function) }
        var settings = courier_client_options()
        courier_client_options_init(&settings)
        if let options {
            settings = try ExtensibleStruct.read(options, over: settings,
                                                 firstVersionSize: ExtensibleStruct.FirstVersionSize.clientOptions,
                                                 name: "courier_client_options", in: #function)
        }
        client.pointee = try register(makeClient(settings), in: #function)
    }
}

@c @implementation
public func courier_client_free(_ client: OpaquePointer?) -> courier_code {
    guard let client else { return COURIER_OK }
    guard let box = HandleRegistry.shared.remove(client, as: ClientBox.self) else { return COURIER_E_INVALID_HANDLE }
    box.close()
    return COURIER_OK
}

/// Builds the client `options` describe, refusing values out of range.
private func makeClient(_ options: courier_client_options) throws -> ClientBox {
    let function: StaticString = "courier_client_new"
    guard options.timeout_ms >= 0, options.connect_timeout_ms > 0 else {
        throw CAPIFailure.invalidArgument("timeout_ms must be 0 or more and connect_timeout_ms more than 0", in: function)
    }
    guard options.max_redirects >= 0, options.max_body_bytes > 0 else {
        throw CAPIFailure.invalidArgument("max_redirects must be 0 or more and max_body_bytes more than 0", in: function)
    }
    guard (1...64).contains(options.callback_threads) else {
        throw CAPIFailure.invalidArgument("callback_threads must be 1 to 64", in: function)
    }
    var configuration = Client.Configuration()
    configuration.timeout = options.timeout_ms == 0 ? nil : .milliseconds(options.timeout_ms)
    configuration.connectTimeout = .milliseconds(options.connect_timeout_ms)
    configuration.limits.maxRedirects = Int(options.max_redirects)
    configuration.limits.maxBodyBytes = options.max_body_bytes
    if options.follow_redirects == 0 { configuration.redirects = .disabled }
    let verify = options.verify_tls != 0
    let transport: any Transport
    var shutdown: (@Sendable () async -> Void)?
    switch options.transport {
    case COURIER_TRANSPORT_CURL:
        if verify {
            transport = CurlTransport.shared
        } else {
            var curl = CurlTransport.Configuration()
            curl.verifyPeer = false
            curl.verifyHost = false
            let created = CurlTransport(configuration: curl)
            shutdown = { await created.shutdown() }
            transport = created
        }
    case COURIER_TRANSPORT_ASYNC_HTTP_CLIENT:
        var nio = AsyncHTTPClientTransport.Configuration()
        nio.verifiesCertificates = verify
        nio.connectTimeout = configuration.connectTimeout
        let created = AsyncHTTPClientTransport(configuration: nio)
        shutdown = { try? await created.shutdown() }
        transport = created
    default:
        throw CAPIFailure.invalidArgument("transport \(options.transport.rawValue) is not a courier_transport", in: function)
    }
    let client = Client(transport: transport, configuration: configuration)
    let pool = CallbackPool(threads: Int(options.callback_threads), name: "courier-client")
    return ClientBox(client: client, pool: pool, shutdownOwnedTransport: shutdown)
}

/// Looks up a client handle or fails naming the function.
func clientBox(_ handle: OpaquePointer?, in function: StaticString) throws -> ClientBox {
    guard let box = HandleRegistry.shared.object(handle, as: ClientBox.self) else {
        throw CAPIFailure.invalidHandle("client", in: "\(function)")
    }
    return box
}
