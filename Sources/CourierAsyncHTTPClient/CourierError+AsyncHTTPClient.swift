import AsyncHTTPClient
import Courier
import NIOCore
import NIOHTTP1
import NIOHTTPCompression
import NIOPosix
import NIOSSL

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension CourierError {
    /// A failure from AsyncHTTPClient or SwiftNIO as a `CourierError` about `request`.
    ///
    /// Cancellation of the calling task and a passed `deadline` win over whatever error they
    /// caused, because AsyncHTTPClient reports a request cancelled while waiting for a connection
    /// with the last connection error rather than as a cancellation.
    init(mapping error: any Error, request: Request, deadline: NIODeadline?) {
        let source = "AsyncHTTPClientTransport"
        if var error = error as? CourierError {
            if error.request == nil { error.request = request }
            self = error
        } else if Task.isCancelled {
            self.init(.cancelled, "the request was cancelled", source: source, request: request, underlying: error)
        } else if let deadline, NIODeadline.now() >= deadline {
            self.init(
                .timedOut, "the total timeout passed before the response head arrived", source: source,
                request: request, underlying: error)
        } else {
            let (code, message) = Self.classify(error)
            self.init(code, message, source: source, request: request, underlying: error)
        }
    }

    private static func classify(_ error: any Error) -> (Code, String) {
        switch error {
        case let error as HTTPClientError:
            return classify(error)
        case is CancellationError:
            return (.cancelled, "the request was cancelled")
        case is NIOConnectionError:
            return (.cannotConnect, "could not connect to the server")
        case let error as ChannelError:
            if case .connectTimeout = error { return (.timedOut, "connecting to the server timed out") }
            return (.invalidResponse, "the connection failed before the response was complete")
        case let error as IOError:
            // ENOENT: a Unix socket path where no socket is (curl says "could not connect" too).
            return [ECONNREFUSED, EHOSTUNREACH, ENETUNREACH, EADDRNOTAVAIL, ENOENT].contains(error.errnoCode)
                ? (.cannotConnect, "could not connect to the server")
                : (.invalidResponse, "the connection failed before the response was complete")
        case is NIOSSLError, is BoringSSLError, is NIOSSLExtraError:
            return (.insecureConnection, "the TLS connection could not be established or was broken")
        case let error as NIOHTTPDecompression.DecompressionError where error == .limit:
            return (.limitExceeded, "the response body grows more than the decompression limit allows")
        case is NIOHTTPDecompression.DecompressionError, is NIOHTTPDecompression.ExtraDecompressionError:
            return (.invalidResponse, "the response body could not be decoded")
        case HTTPParserError.headerOverflow:
            return (.limitExceeded, "the response head is larger than the HTTP parser's limit (about 80 KiB)")
        case is HTTPParserError:
            return (.invalidResponse, "the server's reply is not valid HTTP")
        default:
            return (.invalidResponse, "the exchange failed")
        }
    }

    private static func classify(_ error: HTTPClientError) -> (Code, String) {
        switch error {
        case .connectTimeout, .tlsHandshakeTimeout, .socksHandshakeTimeout, .httpProxyHandshakeTimeout,
            .getConnectionFromPoolTimeout:
            (.timedOut, "connecting to the server timed out")
        case .deadlineExceeded, .readTimeout, .writeTimeout:
            (.timedOut, "the request timed out")
        case .cancelled:
            (.cancelled, "the request was cancelled")
        case .remoteConnectionClosed:
            (.invalidResponse, "the server closed the connection before the response was complete")
        case .invalidURL, .emptyHost, .emptyScheme, .missingSocketPath, .traceRequestWithBody, .bodyLengthMismatch:
            (.invalidRequest, "AsyncHTTPClient rejected the request")
        case .proxyAuthenticationRequired:
            (.cannotConnect, "the proxy refused the tunnel: it asks for credentials (407)")
        case .invalidProxyResponse:
            (.cannotConnect, "the proxy refused the tunnel")
        case .alreadyShutdown:
            (.cannotConnect, "the HTTPClient is already shut down")
        default:
            (.invalidResponse, "AsyncHTTPClient failed the exchange")
        }
    }
}
