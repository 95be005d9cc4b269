@_exported public import Courier

extension CurlTransport {
    /// The process-wide libcurl transport behind `Client()`; its connections are shared by every such client.
    ///
    /// It lives as long as the process; its I/O thread sleeps while there is nothing to send.
    /// It reads the environment's proxy variables once, when first used. A process made by
    /// `fork()` gets one of its own when it first asks (the parent's is left untouched, with its
    /// connections); a client made before the fork keeps the parent's, and its sends are refused
    /// with `usedAfterFork`.
    public static var shared: CurlTransport { sharedPerProcess.value }

    private static let sharedPerProcess = PerProcess { CurlTransport() }
}

#if !canImport(Darwin)
extension Client {
    /// A client on the shared libcurl transport, the default on Linux: `import CourierCurl` then
    /// `let client = Client()`. On Apple platforms `Client()` is URLSession's (`CourierURLSession`);
    /// there, pass `CurlTransport.shared` to send with libcurl.
    public init(interceptors: [any Interceptor] = [], configuration: Configuration = Configuration()) {
        self.init(transport: CurlTransport.shared, interceptors: interceptors, configuration: configuration)
    }
}
#endif
