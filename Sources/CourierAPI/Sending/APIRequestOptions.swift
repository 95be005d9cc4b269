import Foundation

/// Where the decoded value sits in the response JSON, carried on the `Request` so decoding finds it.
enum ResponseKeyPathOption: RequestOptionKey {
    static var defaultValue: String? { nil }
}

/// Decodes an error body from a non-2xx response, for the thrown `CourierError`'s `underlying`.
enum ErrorBodyOption: RequestOptionKey {
    static var defaultValue: (@Sendable (Response) -> (any Error & Sendable)?)? { nil }
}

/// The error of an exchange that produced no response, for `Response.error` in `(Response) -> Void` handlers.
enum ExchangeFailureOption: RequestOptionKey {
    static var defaultValue: (any Error & Sendable)? { nil }
}
