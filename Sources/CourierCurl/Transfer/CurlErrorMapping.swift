import CCurl
import Courier

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Turns a failed transfer's `CURLcode` into the `CourierError` callers switch on.
enum CurlErrorMapping {
    /// The error for `code`, with curl's own text (and the handle's detailed error buffer) in the
    /// message; a pin mismatch names the host and its pins first.
    static func error(for code: CURLcode, on easy: EasyHandle, transfer: CurlTransfer) -> CourierError {
        let summary = String(cString: curl_easy_strerror(code))
        let detail = easy.errorDetail
        var message = "curl error \(code.rawValue): \(summary)"
        if !detail.isEmpty, detail != summary { message += ": \(detail)" }
        if code == CURLE_SSL_PINNEDPUBKEYNOTMATCH, let pins = easy.pinnedPublicKeys {
            let host = transfer.request.url.host ?? "the server"
            message = "the public key of \(host)'s certificate is none of its pins (\(pins)); " + message
        }
        return transfer.error(courierCode(for: code), message)
    }

    /// The `CourierError.Code` for a curl result other than `CURLE_OK`.
    static func courierCode(for code: CURLcode) -> CourierError.Code {
        switch code {
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY, CURLE_COULDNT_CONNECT,
            CURLE_QUIC_CONNECT_ERROR:
            return .cannotConnect
        case CURLE_OPERATION_TIMEDOUT:
            return .timedOut
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
            CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_CRL_BADFILE,
            CURLE_SSL_INVALIDCERTSTATUS, CURLE_USE_SSL_FAILED, CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ENGINE_SETFAILED,
            CURLE_SSL_ENGINE_INITFAILED, CURLE_SSL_SHUTDOWN_FAILED, CURLE_SSL_CLIENTCERT:
            return .insecureConnection
        case CURLE_URL_MALFORMAT, CURLE_BAD_FUNCTION_ARGUMENT, CURLE_NOT_BUILT_IN:
            return .invalidRequest
        case CURLE_READ_ERROR:
            return .encodingFailed
        case CURLE_FILESIZE_EXCEEDED:
            return .limitExceeded
        case CURLE_ABORTED_BY_CALLBACK, CURLE_WRITE_ERROR:
            return .cancelled
        default:
            return .invalidResponse
        }
    }
}
