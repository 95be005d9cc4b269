public import Foundation
public import HTTPTypes

/// The return kinds of endpoint functions; generated code picks one by the declared return type.
extension Provider {
    /// Sends `request` and returns the response whatever its status (a `Response` return type).
    public func response(_ request: Request) async throws -> Response {
        try await client.send(request)
    }

    /// Sends `request` and checks for a 2xx status (no return type, `Void`).
    public func send(_ request: Request) async throws {
        _ = try await successfulResponse(request)
    }

    /// The body of a 2xx response; an empty body throws (a `Data` return type).
    public func data(_ request: Request) async throws -> Data {
        let response = try await successfulResponse(request)
        guard !response.body.isEmpty else { throw Self.emptyBody(response) }
        return response.body
    }

    /// The body of a 2xx response, `nil` when empty (a `Data?` return type).
    public func dataIfPresent(_ request: Request) async throws -> Data? {
        let response = try await successfulResponse(request)
        return response.body.isEmpty ? nil : response.body
    }

    /// The header fields of a 2xx response (an `HTTPFields` return type, for `HEAD`).
    public func headers(_ request: Request) async throws -> HTTPFields {
        try await successfulResponse(request).headerFields
    }

    /// A 2xx JSON body decoded as `type`, at the request's `@ResponseKeyPath` if it has one.
    public func decode<Value: Decodable>(_ request: Request, as type: Value.Type) async throws -> Value {
        let response = try await successfulResponse(request)
        guard !response.body.isEmpty else { throw Self.emptyBody(response) }
        return try Self.decode(type, from: response)
    }

    /// A 2xx JSON body decoded as `type`, `nil` when the body is empty (a `T?` return type).
    public func decodeIfPresent<Value: Decodable>(_ request: Request, as type: Value.Type) async throws -> Value? {
        let response = try await successfulResponse(request)
        guard !response.body.isEmpty else { return nil }
        return try Self.decode(type, from: response)
    }

    /// The decoded value with the response it came from (a `(T, Response)` return type).
    public func decodeWithResponse<Value: Decodable>(
        _ request: Request, as type: Value.Type
    ) async throws -> (Value, Response) {
        let response = try await successfulResponse(request)
        guard !response.body.isEmpty else { throw Self.emptyBody(response) }
        return (try Self.decode(type, from: response), response)
    }

    /// Sends `request`; a status outside 200…299 throws `unacceptableStatus` with the request, the
    /// response and, with `@ErrorBody`, the decoded error body as `underlying`.
    func successfulResponse(_ request: Request) async throws -> Response {
        let response = try await client.send(request)
        guard (200..<300).contains(response.status.code) else { throw Self.statusError(response) }
        return response
    }

    /// The core's status error (one message for every front door), with `@ErrorBody`'s decoded body as `underlying`.
    static func statusError(_ response: Response) -> CourierError {
        var error = Client.statusError(response, source: "CourierAPI")
        error.underlying = response.request.options[ErrorBodyOption.self]?(response)
        return error
    }

    static func emptyBody(_ response: Response) -> CourierError {
        CourierError(
            .decodingFailed, "the response body is empty; declare an optional return type to accept that",
            source: "CourierAPI", request: response.request, response: response)
    }

    /// The core's decoding, at the request's `@ResponseKeyPath` if it has one.
    static func decode<Value: Decodable>(_ type: Value.Type, from response: Response) throws -> Value {
        try Client.decode(
            type, from: response, at: response.request.options[ResponseKeyPathOption.self], source: "CourierAPI")
    }
}
