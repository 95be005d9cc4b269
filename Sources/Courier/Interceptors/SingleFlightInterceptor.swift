public import HTTPTypes
import Synchronization

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Lets identical requests in flight at the same time share one transport call: the first
/// goes out, the others wait for its response, and each gets its own buffered copy.
///
/// Only `GET` and `HEAD` requests without a body are shared, and only when method, URL and every
/// header field (in order) are equal, so requests for different users never share a response.
/// Headers that differ per call by design are left out of the comparison: by default the trace
/// context a `TracingInterceptor` registered before this one adds (`traceparent`, `tracestate`,
/// `baggage`); the shared call carries the first caller's.
/// The shared body is read in full, within `Limits.maxBodyBytes`; a larger one fails every
/// member with `limitExceeded`, so do not register this for large downloads. The call runs in
/// its own task: cancelling one member, the first included, does not cancel the others; when
/// every member has gone, the transfer is cancelled.
///
/// Place it after logging, metrics and tracing (each caller is logged, counted and traced) and
/// before retry, so callers share one retry loop as well as one call. Authentication after it is
/// safe when the client has one credential; a credential set per request is part of the key.
public final class SingleFlightInterceptor: Interceptor {
    private let calls = Protected<[String: SharedTask<Response>]>([:])

    /// The header fields that do not make two requests different.
    public let ignoredHeaders: Set<HTTPField.Name>

    /// Creates an interceptor with nothing in flight, ignoring `ignoredHeaders` when comparing requests.
    public init(
        ignoredHeaders: Set<HTTPField.Name> = [
            HTTPField.Name("traceparent")!, HTTPField.Name("tracestate")!,
            HTTPField.Name("baggage")!,
        ]
    ) {
        self.ignoredHeaders = ignoredHeaders
    }

    /// How many distinct calls are in flight now.
    public var inFlightCount: Int { calls.withLock { $0.count } }

    public func intercept(_ request: Request, context: InterceptorContext, next: Next) async throws -> Response {
        guard request.method == .get || request.method == .head, request.body?.isEmpty ?? true else {
            return try await next(request)
        }
        // Joined and judged by synchronous functions, so a send waiting holds little in its frame.
        var response: Response
        do {
            response = try await sharedCall(for: request, next: next, limit: context.limits.maxBodyBytes).value()
        } catch {
            throw failure(error, request: request)
        }
        response.request = request
        return response
    }

    /// The call in flight for an identical request, joined, or a new one that sends this request.
    private func sharedCall(for request: Request, next: Next, limit: Int64) -> SharedTask<Response> {
        let key = sharingKey(for: request)
        return calls.withLock { calls -> SharedTask<Response> in
            if let existing = calls[key], existing.join() { return existing }
            let call = SharedTask<Response>(
                cancelsWhenAbandoned: true,
                operation: {
                    try await next(request).collectingBody(upTo: limit)
                },
                finished: { [self] finished in
                    // An abandoned call may have been replaced by a fresh one, which stays.
                    self.calls.withLock { calls in
                        if calls[key] === finished { calls[key] = nil }
                    }
                })
            calls[key] = call
            return call
        }
    }

    /// What a waiter throws when the shared call failed: its `CourierError`, or one saying why.
    private func failure(_ error: any Error, request: Request) -> any Error {
        if error is CancellationError {
            return CourierError(
                .cancelled, "the request was cancelled while waiting for an identical one in flight",
                source: name, request: request)
        }
        if let error = error as? CourierError { return error }
        return CourierError(
            .interceptorFailed, "the shared request failed: \(error)", source: name,
            request: request, underlying: error)
    }

    /// What makes two requests identical: method, URL and every header line not ignored, in order.
    func sharingKey(for request: Request) -> String {
        var key = "\(request.method.rawValue) \(request.url.absoluteString)"
        for field in request.headerFields where !ignoredHeaders.contains(field.name) {
            key += "\n\(field.name.canonicalName): \(field.value)"
        }
        return key
    }
}
