@_exported public import Courier

extension CurlTransport {
    /// The process-wide libcurl transport behind `Client()`; its connections are shared by every such client.
    ///
    /// It lives as long as the process; its I/O thread sleeps while there is nothing to send.
    /// It reads the environment's proxy variables once, when first used.
    public static let shared = CurlTransport()
}

extension Client {
    /// A client on the shared libcurl transport, the default: `import CourierCurl` then `let client = Client()`.
    public init(interceptors: [any Interceptor] = [], configuration: Configuration = Configuration()) {
        self.init(transport: CurlTransport.shared, interceptors: interceptors, configuration: configuration)
    }
}
