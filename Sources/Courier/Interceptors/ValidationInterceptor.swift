import HTTPTypes

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Turns a response the caller cannot use into a typed error: a status outside the acceptable
/// set (`unacceptableStatus`) or a `Content-Type` the caller did not ask for (`unacceptableContentType`).
///
/// The error carries the response with its body read (within `Limits.maxBodyBytes`), so a
/// `catch` can show the server's explanation. By default the acceptable types are the ones the
/// request's own `Accept` header names, as Alamofire's `validate()` does: a request asking for
/// JSON that receives an HTML error page fails here instead of in the decoder.
///
/// Register it last (innermost): `RetryInterceptor` and `AuthenticationInterceptor` before it read
/// the status of its `unacceptableStatus` error as they would a response's.
public struct ValidationInterceptor: Interceptor {
    /// Which response content types are acceptable.
    public enum ContentTypes: Sendable, Hashable {
        /// Any type, or none.
        case any
        /// The types in the request's `Accept` header; any type when the request has none.
        case fromAcceptHeader
        /// Exactly these types; `type/*` and `*/*` are wildcards, parameters are ignored.
        case only([MIMEType])
    }

    /// The acceptable status codes.
    public let statuses: Set<Int>
    /// The acceptable content types.
    public let contentTypes: ContentTypes

    /// Accepts `statuses` and `contentTypes` (the request's `Accept` by default).
    public init(statuses: some Sequence<Int>, contentTypes: ContentTypes = .fromAcceptHeader) {
        self.statuses = Set(statuses)
        self.contentTypes = contentTypes
    }

    /// Accepts 2xx statuses and `contentTypes` (the request's `Accept` by default).
    public init(contentTypes: ContentTypes = .fromAcceptHeader) {
        self.init(statuses: 200..<300, contentTypes: contentTypes)
    }

    public func intercept(_ request: Request, context: InterceptorContext, next: Next) async throws -> Response {
        let response = try await next(request)
        // Judged by a synchronous function, so the messages' formatting stays out of the frame a
        // send in flight holds (1,520 bytes when it was inline).
        guard let refusal = refusal(of: response, to: request) else { return response }
        throw await Self.failure(refusal.code, refusal.message, response: response, context: context)
    }

    /// Why `response` is refused, or `nil` when its status and type are acceptable.
    private func refusal(of response: Response, to request: Request) -> (code: CourierError.Code, message: String)? {
        if !statuses.contains(response.status.code) {
            return (
                .unacceptableStatus,
                "\(request.method) \(response.request.url.absoluteString) answered \(response.status.code) \(response.status.reasonPhrase)"
            )
        }
        let accepted = acceptedTypes(for: request)
        if !accepted.isEmpty, !Self.contentType(of: response, isAmong: accepted) {
            let received = response.headerFields[.contentType] ?? "no Content-Type"
            let expected = accepted.map(\.rawValue).joined(separator: ", ")
            return (
                .unacceptableContentType,
                "\(request.method) \(response.request.url.absoluteString) answered \(received), expected \(expected)"
            )
        }
        return nil
    }

    /// The types a response to `request` must have; empty means any.
    func acceptedTypes(for request: Request) -> [MIMEType] {
        switch contentTypes {
        case .any:
            return []
        case .only(let types):
            return types
        case .fromAcceptHeader:
            guard let accept = request.headerFields[.accept] else { return [] }
            let types = accept.split(separator: ",").map { MIMEType(String($0)) }.filter { !$0.essence.isEmpty }
            return types.contains { $0.essence == "*/*" } ? [] : types
        }
    }

    /// Whether `response` has one of `accepted` types; a response known to have no body needs none.
    static func contentType(of response: Response, isAmong accepted: [MIMEType]) -> Bool {
        guard let received = response.contentType else {
            let code = response.status.code
            return code == 204 || code == 304 || response.request.method == .head
                || response.headerFields[.contentLength] == "0"
                || (!response.isStreaming && response.body.isEmpty)
        }
        let (type, subtype) = split(received.essence)
        return accepted.contains { candidate in
            let (wantedType, wantedSubtype) = split(candidate.essence)
            return (wantedType == "*" || wantedType == type) && (wantedSubtype == "*" || wantedSubtype == subtype)
        }
    }

    private static func split(_ essence: String) -> (Substring, Substring) {
        let parts = essence.split(separator: "/", maxSplits: 1)
        return (parts.first ?? "", parts.count > 1 ? parts[1] : "")
    }

    /// An error carrying `response` with its body read, or discarded when it cannot be read.
    @inline(never)  // a frame of its own, allocated only for a refused response
    static func failure(
        _ code: CourierError.Code, _ message: String, response: Response,
        context: InterceptorContext
    ) async -> CourierError {
        var carried = response
        do {
            carried = try await response.collectingBody(upTo: context.limits.maxBodyBytes)
        } catch {
            response.bodyStream?.discard()
            carried.bodyStream = nil
        }
        return CourierError(
            code, message, source: "ValidationInterceptor", request: response.request, response: carried)
    }
}
