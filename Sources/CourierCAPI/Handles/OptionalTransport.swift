import CCourierHooks
package import Courier
import CourierCInterceptors

/// A transport a build of the C library may be linked with beside libcurl's, made from a client's
/// options. The default library carries none (a C caller asking for one gets
/// `COURIER_E_UNSUPPORTED`, naming the library to install); the variant built with
/// `CourierCAPIAsyncHTTPClient` carries AsyncHTTPClient's, found at link time
/// (`ccourier_async_http_client_factory`), so this module never depends on SwiftNIO.
package final class OptionalTransport: Sendable {
    /// Makes the transport for a client, and what shuts it down when the client is freed.
    package typealias Make =
        @Sendable (ClientOptions) throws -> (
            transport: any Transport, shutdown: @Sendable () async -> Void
        )

    package let make: Make

    package init(_ make: @escaping Make) {
        self.make = make
    }

    /// AsyncHTTPClient's, when this library was built with it.
    static let asyncHTTPClient: OptionalTransport? = ccourier_async_http_client_factory().map {
        Unmanaged<OptionalTransport>.fromOpaque($0).takeUnretainedValue()
    }
}
