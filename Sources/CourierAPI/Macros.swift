public import Foundation

// The attributes of declared APIs. Their spellings are Netrofit's and Papyrus's, so code written
// from either library's README compiles with only its import changed (see the DocC article
// "Describing an API", Sources/Courier/Courier.docc/DescribingAnAPI.md).

/// Makes a struct or protocol an API: on a struct, adds `provider` and `init(_:)`/`init(provider:)`
/// for the endpoint bodies its method attributes write; on a protocol, generates `<Protocol>API`.
@attached(member, names: named(provider), named(init))
@attached(peer, names: suffixed(API))
@attached(extension, conformances: Sendable, names: arbitrary)
public macro API() = #externalMacro(module: "CourierAPIMacros", type: "APIMacro")

/// Generates `<Protocol>Mock`, with a `mock<Endpoint> { … }` function per endpoint and a clear
/// error for an endpoint called without being mocked.
@attached(peer, names: suffixed(Mock))
public macro Mock() = #externalMacro(module: "CourierAPIMacros", type: "MockMacro")

/// A `GET` endpoint; writes the function's body and a `<name>Request(…)` function building its `Request`.
@attached(body)
@attached(peer, names: suffixed(Request))
public macro GET(_ path: String = "") = #externalMacro(module: "CourierAPIMacros", type: "EndpointMacro")

/// A `POST` endpoint.
@attached(body)
@attached(peer, names: suffixed(Request))
public macro POST(_ path: String = "") = #externalMacro(module: "CourierAPIMacros", type: "EndpointMacro")

/// A `PUT` endpoint.
@attached(body)
@attached(peer, names: suffixed(Request))
public macro PUT(_ path: String = "") = #externalMacro(module: "CourierAPIMacros", type: "EndpointMacro")

/// A `PATCH` endpoint.
@attached(body)
@attached(peer, names: suffixed(Request))
public macro PATCH(_ path: String = "") = #externalMacro(module: "CourierAPIMacros", type: "EndpointMacro")

/// A `DELETE` endpoint.
@attached(body)
@attached(peer, names: suffixed(Request))
public macro DELETE(_ path: String = "") = #externalMacro(module: "CourierAPIMacros", type: "EndpointMacro")

/// A `HEAD` endpoint.
@attached(body)
@attached(peer, names: suffixed(Request))
public macro HEAD(_ path: String = "") = #externalMacro(module: "CourierAPIMacros", type: "EndpointMacro")

/// An `OPTIONS` endpoint.
@attached(body)
@attached(peer, names: suffixed(Request))
public macro OPTIONS(_ path: String = "") = #externalMacro(module: "CourierAPIMacros", type: "EndpointMacro")

/// A `TRACE` endpoint.
@attached(body)
@attached(peer, names: suffixed(Request))
public macro TRACE(_ path: String = "") = #externalMacro(module: "CourierAPIMacros", type: "EndpointMacro")

/// A `CONNECT` endpoint.
@attached(body)
@attached(peer, names: suffixed(Request))
public macro CONNECT(_ path: String = "") = #externalMacro(module: "CourierAPIMacros", type: "EndpointMacro")

/// An endpoint with any method: `@HTTP("/path", method: "LINK")` (Netrofit's spelling).
@attached(body)
@attached(peer, names: suffixed(Request))
public macro HTTP(_ path: String, method: String) = #externalMacro(module: "CourierAPIMacros", type: "EndpointMacro")

/// An endpoint with any method: `@Http(path: "/path", method: "LINK")` (Papyrus's spelling).
@attached(body)
@attached(peer, names: suffixed(Request))
public macro Http(path: String, method: String) = #externalMacro(module: "CourierAPIMacros", type: "EndpointMacro")

/// Static headers for every endpoint of a type, or for one endpoint (whose headers win).
@attached(peer)
public macro Headers(_ headers: [String: String]) = #externalMacro(module: "CourierAPIMacros", type: "OptionMacro")

/// A static `Authorization` header: `@Authorization(.bearer("…"))`, `.basic(username:password:)`.
@attached(peer)
public macro Authorization(_ authorization: Authorization) =
    #externalMacro(module: "CourierAPIMacros", type: "OptionMacro")

/// JSON bodies and responses (the default), optionally with your own coders.
@attached(peer)
public macro JSON(encoder: JSONEncoder = JSONEncoder(), decoder: JSONDecoder = JSONDecoder()) =
    #externalMacro(module: "CourierAPIMacros", type: "OptionMacro")

/// `application/x-www-form-urlencoded` bodies (Netrofit's spelling of `@URLForm`).
@attached(peer)
public macro FormUrlEncoded(encoder: URLFormEncoder = URLFormEncoder(), decoder: JSONDecoder = JSONDecoder()) =
    #externalMacro(module: "CourierAPIMacros", type: "OptionMacro")

/// `application/x-www-form-urlencoded` bodies (Papyrus's spelling of `@FormUrlEncoded`).
@attached(peer)
public macro URLForm(encoder: URLFormEncoder = URLFormEncoder(), decoder: JSONDecoder = JSONDecoder()) =
    #externalMacro(module: "CourierAPIMacros", type: "OptionMacro")

/// `multipart/form-data` bodies; parameters become parts, files streamed from disk.
@attached(peer)
public macro Multipart(decoder: JSONDecoder = JSONDecoder()) =
    #externalMacro(module: "CourierAPIMacros", type: "OptionMacro")

/// How query, field and body keys are written and response keys read: `@KeyMapping(.snakeCase)`.
@attached(peer)
public macro KeyMapping(_ mapping: KeyMapping) = #externalMacro(module: "CourierAPIMacros", type: "OptionMacro")

/// Decodes the return value from a nested key of the response JSON: `@ResponseKeyPath("data.list")`.
@attached(peer)
public macro ResponseKeyPath(_ keyPath: String) = #externalMacro(module: "CourierAPIMacros", type: "OptionMacro")

/// A Server-Sent Events endpoint returning `AsyncStream` or `AsyncThrowingStream` of `String`
/// (each event's data), `ServerSentEvent`, or a `Decodable` decoded from each event's data.
@attached(peer)
public macro EventStreaming() = #externalMacro(module: "CourierAPIMacros", type: "OptionMacro")

/// The whole exchange's deadline in seconds, for one endpoint or every endpoint of a type.
@attached(peer)
public macro Timeout(_ seconds: Double) = #externalMacro(module: "CourierAPIMacros", type: "OptionMacro")

/// Retries the endpoint with the core's `RetryInterceptor` (idempotent methods, retryable statuses).
@attached(peer)
public macro Retry(maxAttempts: Int = 3) = #externalMacro(module: "CourierAPIMacros", type: "OptionMacro")

/// Decodes a non-2xx body as `type`, available as the thrown `CourierError`'s `underlying`.
@attached(peer)
public macro ErrorBody<Body: Decodable & Error & Sendable>(_ type: Body.Type) =
    #externalMacro(module: "CourierAPIMacros", type: "OptionMacro")
