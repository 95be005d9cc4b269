public import Courier
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Turns URLSession's errors (`NSURLErrorDomain` codes) and the exchange's own failures into the
/// `CourierError` codes every transport reports, so callers switch on the same cases.
enum URLSessionErrorMapping {
    /// The `CourierError.Code` for an `NSURLErrorDomain` code.
    static func courierCode(for urlErrorCode: Int) -> CourierError.Code {
        switch URLError.Code(rawValue: urlErrorCode) {
        case .timedOut:
            .timedOut
        case .cannotFindHost, .cannotConnectToHost, .dnsLookupFailed, .notConnectedToInternet,
            .internationalRoamingOff, .callIsActive, .dataNotAllowed, .cannotLoadFromNetwork:
            .cannotConnect
        case .cancelled, .userCancelledAuthentication:
            .cancelled
        case .secureConnectionFailed, .serverCertificateHasBadDate, .serverCertificateUntrusted,
            .serverCertificateHasUnknownRoot, .serverCertificateNotYetValid, .clientCertificateRejected,
            .clientCertificateRequired, .appTransportSecurityRequiresSecureConnection:
            .insecureConnection
        case .badURL:
            .invalidRequest
        // Courier sends only http and https URLs with a host, so FoundationNetworking's "unsupported
        // URL" is libcurl's CURLE_UNSUPPORTED_PROTOCOL for what the server sent (an HTTP/0.9 reply).
        case .unsupportedURL:
            .invalidResponse
        case .fileDoesNotExist, .noPermissionsToReadFile, .requestBodyStreamExhausted:
            .encodingFailed
        case .dataLengthExceedsMaximum:
            .limitExceeded
        case .httpTooManyRedirects, .redirectToNonExistentLocation:
            .tooManyRedirects
        case .userAuthenticationRequired:
            .authenticationFailed
        default:
            .invalidResponse
        }
    }

    /// The code for an error URLSession reported, reading the text of the codes FoundationNetworking
    /// leaves unknown: it maps only a few libcurl errors, so a TLS failure arrives as `unknown` with
    /// libcurl's message ("SSL certificate problem: …").
    static func courierCode(for urlErrorCode: Int, description: String) -> CourierError.Code {
        let code = courierCode(for: urlErrorCode)
        guard urlErrorCode == URLError.Code.unknown.rawValue else { return code }
        let text = description.lowercased()
        if text.contains("ssl") || text.contains("tls") || text.contains("certificate") { return .insecureConnection }
        if text.contains("could not connect") || text.contains("couldn't connect") || text.contains("resolve") {
            return .cannotConnect
        }
        return code
    }

    /// The error `send` or the body throws for `failure`.
    static func error(for failure: URLSessionExchangeFailure, request: Request, timeout: Duration?) -> CourierError {
        let source = "URLSessionTransport"
        switch failure {
        case .cancelled:
            return CourierError(.cancelled, "the request was cancelled", source: source, request: request)
        case .timedOut:
            let limit = timeout.map { " of \($0)" } ?? ""
            return CourierError(
                .timedOut, "the request did not complete within its timeout\(limit)", source: source, request: request)
        case .noResponse:
            return CourierError(
                .invalidResponse, "URLSession completed the task without a response", source: source, request: request)
        case .urlError(let code, let description):
            return CourierError(
                courierCode(for: code, description: description), "URLSession error \(code): \(description)",
                source: source, request: request)
        case .rejected(let limit, let message, let rule):
            return CourierError(limit ? .limitExceeded : .invalidResponse, message, source: rule, request: request)
        }
    }

    /// The failure for an error URLSession completed a task with.
    static func failure(for error: any Error) -> URLSessionExchangeFailure {
        let nsError = error as NSError
        guard nsError.domain == NSURLErrorDomain else {
            return .urlError(
                code: URLError.Code.unknown.rawValue,
                description: "\(nsError.domain) \(nsError.code): \(nsError.localizedDescription)")
        }
        return .urlError(code: nsError.code, description: nsError.localizedDescription)
    }
}
