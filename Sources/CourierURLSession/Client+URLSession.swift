@_exported public import Courier

extension URLSessionTransport {
    /// The process-wide URLSession transport, on an ephemeral session: behind `Client()` on Apple
    /// platforms. A process made by `fork()` gets one of its own when it first asks.
    public static var shared: URLSessionTransport { sharedPerProcess.value }

    private static let sharedPerProcess = PerProcess { URLSessionTransport() }
}

#if canImport(Darwin)
extension Client {
    /// A client on the shared URLSession transport, the default on Apple platforms (libcurl, the
    /// default on Linux, is not part of iOS): `import CourierURLSession` then `let client = Client()`.
    public init(interceptors: [any Interceptor] = [], configuration: Configuration = Configuration()) {
        self.init(transport: URLSessionTransport.shared, interceptors: interceptors, configuration: configuration)
    }
}
#endif
