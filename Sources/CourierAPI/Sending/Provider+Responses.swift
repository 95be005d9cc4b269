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

    static func statusError(_ response: Response) -> CourierError {
        let errorBody = response.request.options[ErrorBodyOption.self]?(response)
        return CourierError(
            .unacceptableStatus,
            "\(response.request.method) \(response.request.url.absoluteString) answered \(response.status.code) \(response.status.reasonPhrase)",
            source: "CourierAPI", request: response.request, response: response, underlying: errorBody)
    }

    static func emptyBody(_ response: Response) -> CourierError {
        CourierError(
            .decodingFailed, "the response body is empty; declare an optional return type to accept that",
            source: "CourierAPI", request: response.request, response: response)
    }

    static func decode<Value: Decodable>(_ type: Value.Type, from response: Response) throws -> Value {
        let decoder = response.request.options[JSONDecoderOption.self]
        let keys = response.request.options[ResponseKeyPathOption.self]?.split(separator: ".").map(String.init) ?? []
        do {
            guard !keys.isEmpty else { return try decoder.decode(Value.self, from: response.body) }
            return try KeyPathDecoding.$keys.withValue(keys[...]) {
                try decoder.decode(KeyPathDecoded<Value>.self, from: response.body).value
            }
        } catch {
            throw CourierError(
                .decodingFailed, "could not decode \(Value.self) from the response: \(error)",
                source: "CourierAPI", request: response.request, response: response, underlying: error)
        }
    }
}

/// A value found by walking nested JSON objects along `@ResponseKeyPath`'s keys.
struct KeyPathDecoded<Value: Decodable>: Decodable {
    let value: Value

    init(from decoder: any Decoder) throws {
        var container = try decoder.container(keyedBy: FieldsObject.Key.self)
        var keys = KeyPathDecoding.keys
        while keys.count > 1 {
            container = try container.nestedContainer(
                keyedBy: FieldsObject.Key.self, forKey: FieldsObject.Key(stringValue: keys.removeFirst()))
        }
        value = try container.decode(Value.self, forKey: FieldsObject.Key(stringValue: keys.first ?? ""))
    }
}

/// The keys `KeyPathDecoded` walks, for the decode running on this task.
enum KeyPathDecoding {
    @TaskLocal static var keys: ArraySlice<String> = []
}
