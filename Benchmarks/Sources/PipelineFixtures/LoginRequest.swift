public import Courier
public import Foundation
import HTTPTypes

/// The documentation's login request (The Builder, by Example), built the two ways the DSL benchmark compares.
public enum LoginRequest {
    /// The credentials the login request posts.
    public struct Credentials: Encodable, Sendable {
        let username: String
        let password: String
    }

    /// The credentials both builds encode.
    public static let credentials = Credentials(username: "ada", password: "correct horse")
    static let url = "https://api.example.com/v1/sessions"

    /// With the builder, as the documentation writes it.
    public static func dsl() throws -> Request {
        try Request {
            Method.POST
            BaseURL("https://api.example.com")
            Endpoint("/v1/sessions")
            Accept(.json)
            IdempotencyKey("k")
            RequestBody.json(credentials)
        }
    }

    /// The builder without the body block: what the JSON body adds to `dsl()`.
    public static func dslWithoutBody() throws -> Request {
        try Request {
            Method.POST
            BaseURL("https://api.example.com")
            Endpoint("/v1/sessions")
            Accept(.json)
            IdempotencyKey("k")
        }
    }

    /// The URL blocks alone: the cost of resolving `Endpoint` against `BaseURL`.
    public static func dslURLOnly() throws -> Request {
        try Request {
            BaseURL("https://api.example.com")
            Endpoint("/v1/sessions")
        }
    }

    /// The same method, URL, header fields and body bytes set directly on `Request(method:url:headerFields:body:)`,
    /// encoding the body with a fresh `JSONEncoder` as the builder does.
    public static func direct() throws -> Request {
        try direct(body: JSONEncoder().encode(credentials))
    }

    /// As `direct()`, with the body bytes already encoded: what is left once JSON encoding is taken out.
    public static func direct(body: Data) throws -> Request {
        guard let url = URL(string: url) else { throw CourierError(.invalidRequest, "bad URL") }
        return Request(method: .post, url: url,
                       headerFields: [.accept: "application/json", idempotencyKey: "k", .contentType: "application/json"],
                       body: .data(body, type: .json))
    }

    /// The body bytes `direct(body:)` takes.
    public static let encodedBody: Data = (try? JSONEncoder().encode(credentials)) ?? Data()

    private static let idempotencyKey = HTTPField.Name("Idempotency-Key")!

    /// How two login requests would differ on the wire (method, URL, header fields, body), or `nil` when they
    /// would not. Bodies are compared as JSON objects: `JSONEncoder` does not fix the order of keys.
    public static func wireDifference(_ a: Request, _ b: Request) async throws -> String? {
        let (bodyA, bodyB) = (try await a.body?.collect(), try await b.body?.collect())
        func object(_ body: Data?) -> [String: String]? { body.flatMap { try? JSONDecoder().decode([String: String].self, from: $0) } }
        guard a.method == b.method, a.url == b.url, a.wireHeaderFields == b.wireHeaderFields,
              let objectA = object(bodyA), objectA == object(bodyB) else {
            func show(_ request: Request, _ body: Data?) -> String {
                "\(request.method) \(request.url.absoluteString) \(request.wireHeaderFields) \(body.map { String(decoding: $0, as: UTF8.self) } ?? "")"
            }
            return "\(show(a, bodyA))\n  vs \(show(b, bodyB))"
        }
        return nil
    }
}
