public import Courier
public import Foundation
import HTTPTypes

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The outcome of one exchange, as "HTTP in Swift" names it: the response, or the error with the
/// request (and any response) it came from.
public typealias HTTPResult = Result<Response, CourierError>

extension Result where Success == Response, Failure == CourierError {
    /// The request, on either side: the response's, or the one the error names.
    ///
    /// Optional, where the series' `HTTPResult.request` is not (write `result.request?.url` where it
    /// writes `result.request.url`): its `HTTPError` must be made with a request, but a
    /// `CourierError` can exist without one, such as a builder block's error or one a mock builds
    /// by hand, and any of them can be put in a `.failure`. Every result `Client.load(_:)` gives
    /// has its request.
    public var request: Request? {
        switch self {
        case .success(let response): response.request
        case .failure(let error): error.request
        }
    }

    /// The response, when there is one: the success, or the response an error came with (an unacceptable status).
    public var response: Response? {
        switch self {
        case .success(let response): response
        case .failure(let error): error.response
        }
    }
}

extension Response {
    /// The status's reason phrase: the one the server sent, or the standard one for its code
    /// when it sent none (HTTP/2 has none).
    public var message: String {
        status.reasonPhrase.isEmpty ? HTTPURLResponse.localizedString(forStatusCode: status.code) : status.reasonPhrase
    }
}

extension Client {
    /// Sends `request` and gives the outcome as a value, never throwing: "HTTP in Swift"'s
    /// `load(request) -> HTTPResult`. An error that is not a `CourierError` becomes `unknown`.
    ///
    /// A failure always names a request, as the series' errors do: the one the error was raised
    /// for (after the interceptors that ran before it), else `request`.
    public nonisolated(nonsending) func load(
        _ request: Request, interceptors extra: [any Interceptor] = []
    ) async -> HTTPResult {
        do {
            return .success(try await send(request, interceptors: extra))
        } catch var error as CourierError {
            if error.request == nil { error.request = request }
            return .failure(error)
        } catch {
            return .failure(
                CourierError(.unknown, "the exchange failed: \(error)", request: request, underlying: error))
        }
    }
}
