import HTTPTypes

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

extension Client {
    /// Sends `request` and decodes a 2xx JSON body as `Value` with the request's `JSONDecoder`.
    ///
    /// - Parameters:
    ///   - request: the request to send.
    ///   - type: the type to decode.
    ///   - keyPath: where the value sits in the JSON, as dot-separated keys (`"data.list"`).
    /// - Throws: `unacceptableStatus` (with the response) for a status outside 200…299;
    ///   `decodingFailed` when the body does not decode, naming the coding path.
    public nonisolated(nonsending) func send<Value: Decodable>(
        _ request: Request, decoding type: Value.Type = Value.self,
        at keyPath: String? = nil
    ) async throws -> Value {
        let response = try await send(request)
        try Self.requireSuccess(response)
        return try Self.decode(type, from: response, at: keyPath)
    }

    /// Sends `request` and decodes a 2xx body as `Value`, or a non-2xx body as `ErrorBody`.
    ///
    /// - Throws: for a status outside 200…299, `unacceptableStatus` whose `underlying` is the
    ///   decoded `ErrorBody` (when it decodes), so `catch let error as CourierError` can read it.
    public nonisolated(nonsending) func send<Value: Decodable, ErrorBody: Decodable & Error>(
        _ request: Request, decoding type: Value.Type = Value.self, errorBody: ErrorBody.Type, at keyPath: String? = nil
    ) async throws -> Value {
        let response = try await send(request)
        guard (200..<300).contains(response.status.code) else {
            var error = Self.statusError(response)
            error.underlying = try? Self.decode(ErrorBody.self, from: response, at: nil)
            throw error
        }
        return try Self.decode(type, from: response, at: keyPath)
    }

    /// Sends `request` and returns the decoded value together with the response it came from.
    public nonisolated(nonsending) func send<Value: Decodable>(
        _ request: Request, decoding type: (Value, Response).Type,
        at keyPath: String? = nil
    ) async throws -> (Value, Response) {
        let response = try await send(request)
        try Self.requireSuccess(response)
        return (try Self.decode(Value.self, from: response, at: keyPath), response)
    }

    /// Sends `request` and returns the raw body of a 2xx response.
    public nonisolated(nonsending) func send(_ request: Request, decoding type: Data.Type) async throws -> Data {
        let response = try await send(request)
        try Self.requireSuccess(response)
        return response.body
    }

    /// Sends `request` and returns the body of a 2xx response as UTF-8 text.
    public nonisolated(nonsending) func send(_ request: Request, decoding type: String.Type) async throws -> String {
        let response = try await send(request)
        try Self.requireSuccess(response)
        return response.text
    }

    /// Sends `request` and checks for a 2xx status, ignoring any body (a `204 No Content`).
    public nonisolated(nonsending) func send(_ request: Request, decoding type: Void.Type) async throws {
        try Self.requireSuccess(try await send(request))
    }

    /// Sends `request` and returns the response whatever its status, as `send(_:)` does.
    public nonisolated(nonsending) func send(_ request: Request, decoding type: Response.Type) async throws -> Response
    {
        try await send(request)
    }

    /// Throws `statusError(response)` for a status outside 200…299.
    package static func requireSuccess(_ response: Response, source: String = "decoding") throws {
        guard (200..<300).contains(response.status.code) else { throw statusError(response, source: source) }
    }

    /// The `unacceptableStatus` error for `response`, naming the request and the status; the one
    /// every decoding front door (this extension, `CourierAPI`'s providers) throws.
    package static func statusError(_ response: Response, source: String = "decoding") -> CourierError {
        CourierError(
            .unacceptableStatus,
            "\(response.request.method) \(response.request.url.absoluteString) answered \(response.status.code) \(response.status.reasonPhrase)",
            source: source, request: response.request, response: response)
    }

    /// `response`'s body decoded as `type` with the request's `JSONDecoder`, found at `keyPath`
    /// (dot-separated keys) when one is given; `decodingFailed` names the coding path.
    package static func decode<Value: Decodable>(
        _ type: Value.Type, from response: Response, at keyPath: String?, source: String = "decoding"
    ) throws -> Value {
        let decoder = response.request.options[JSONDecoderOption.self]
        do {
            guard let keyPath, !keyPath.isEmpty else { return try decoder.decode(Value.self, from: response.body) }
            let keys = keyPath.split(separator: ".").map(String.init)
            return try KeyPathDecoding.$keys.withValue(keys) {
                try decoder.decode(KeyPathDecoding.Nested<Value>.self, from: response.body).value
            }
        } catch {
            throw CourierError(
                .decodingFailed,
                "could not decode \(Value.self)\(keyPath.map { " at \"\($0)\"" } ?? ""): \(describe(error))",
                source: source, request: response.request, response: response, underlying: error)
        }
    }

    private static func describe(_ error: any Error) -> String {
        guard let decodingError = error as? DecodingError else { return String(describing: error) }
        let context: DecodingError.Context
        switch decodingError {
        case .typeMismatch(_, let c), .valueNotFound(_, let c), .keyNotFound(_, let c), .dataCorrupted(let c):
            context = c
        @unknown default: return String(describing: error)
        }
        let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        return (path.isEmpty ? "" : "at \(path.hasPrefix(".") ? String(path.dropFirst()) : path): ")
            + context.debugDescription
    }
}

/// Decodes a value nested at a path of keys, without copying the request's shared decoder.
enum KeyPathDecoding {
    @TaskLocal static var keys: [String] = []

    struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    struct Nested<Value: Decodable>: Decodable {
        let value: Value

        init(from decoder: any Decoder) throws {
            var keys = KeyPathDecoding.keys[...]
            guard let last = keys.popLast() else {
                value = try Value(from: decoder)
                return
            }
            var container = try decoder.container(keyedBy: Key.self)
            for key in keys {
                container = try container.nestedContainer(keyedBy: Key.self, forKey: Key(stringValue: key))
            }
            value = try container.decode(Value.self, forKey: Key(stringValue: last))
        }
    }
}
