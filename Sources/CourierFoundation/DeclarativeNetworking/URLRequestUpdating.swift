public import Courier
public import Foundation
import HTTPTypes

#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// A value that updates a `URLRequest`, written directly as a block (DeclarativeNetworking's
/// extension point): conform and return the updated request.
///
/// ```swift
/// struct Signed: URLRequestUpdating {
///     func updatingUrlRequest(_ request: URLRequest) throws -> URLRequest {
///         var request = request
///         request.setValue(signature(of: request), forHTTPHeaderField: "X-Signature")
///         return request
///     }
/// }
/// ```
///
/// It runs once the rest of the request is complete, like `Authorization`. Only what it changed
/// is taken back: the method, the URL, each header field it set or removed (the others keep
/// their order), the body and the timeout.
public protocol URLRequestUpdating {
    /// Returns `request` updated.
    func updatingUrlRequest(_ request: URLRequest) throws -> URLRequest
}

/// A header field written directly as a block: a type with a `name` and a `value`
/// (DeclarativeNetworking's header extension point). It sets the field, replacing earlier values.
public protocol URLRequestHeader: URLRequestUpdating {
    /// The field name (`"X-Request-Source"`).
    var name: String { get }
    /// The field value.
    var value: String { get }
}

extension URLRequestHeader {
    public func updatingUrlRequest(_ request: URLRequest) throws -> URLRequest {
        var request = request
        request.setValue(value, forHTTPHeaderField: name)
        return request
    }
}

/// A `URLRequestHeader` as a block: validated and set in place, in the order written.
struct URLRequestHeaderBlock: RequestBuildable {
    let name: String
    let value: String

    func apply(to draft: inout RequestDraft) throws {
        try draft.setHeader(name, value, block: "URLRequestHeader")
    }
}

/// A `URLRequestUpdating` as a block: runs on the complete request, through `URLRequest`.
struct URLRequestUpdatingBlock: RequestBuildable {
    let updating: any URLRequestUpdating

    func apply(to draft: inout RequestDraft) throws {
        let updating = self.updating
        let source = "URLRequestUpdating(\(type(of: updating)))"
        draft.whenComplete(source: source) { request in
            let before = try URLRequest(request)
            let after: URLRequest
            do {
                after = try updating.updatingUrlRequest(before)
            } catch let error as CourierError {
                throw error
            } catch {
                throw CourierError(
                    .invalidRequest, "\(type(of: updating)) failed to update the request", source: source,
                    underlying: error)
            }
            try Self.take(after, over: before, into: &request, source: source)
        }
    }

    /// Copies into `request` what `after` changed relative to `before`.
    static func take(_ after: URLRequest, over before: URLRequest, into request: inout Request, source: String) throws {
        if after.httpMethod != before.httpMethod, let name = after.httpMethod {
            guard let method = HTTPRequest.Method(name) else {
                throw CourierError(.invalidRequest, "\"\(name)\" is not a method token", source: source)
            }
            request.method = method
        }
        if after.url != before.url {
            guard let url = after.url, url.scheme != nil, url.host != nil else {
                throw CourierError(.invalidRequest, "the updated URL is missing or not absolute", source: source)
            }
            request.url = url
        }
        let old = before.allHTTPHeaderFields ?? [:]
        let new = after.allHTTPHeaderFields ?? [:]
        for name in old.keys where new.keys.first(where: { $0.caseInsensitiveCompare(name) == .orderedSame }) == nil {
            if let field = HTTPField.Name(name) { request.headerFields[values: field] = [] }
        }
        for (name, value) in new where old[name] != value {
            let field = try RequestDraft.validatedField(name, value, block: source)
            request.headerFields[values: field.name] = [field.value]
        }
        if after.httpBody != before.httpBody {
            request.body = after.httpBody.map { RequestBody.data($0) }
        }
        if after.timeoutInterval != before.timeoutInterval {
            request.timeout = .milliseconds(Int64(after.timeoutInterval * 1000))
        }
    }
}
