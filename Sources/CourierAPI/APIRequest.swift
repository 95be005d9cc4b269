import Foundation
import HTTPTypes

/// One endpoint call as the macros describe it, before it becomes a `Request`.
///
/// Generated code fills it in parameter by parameter (`path`, `query`, `field`, …) and
/// `Provider.request(for:)` turns it into a validated `Request` with the core builder, so a declared
/// endpoint builds exactly the request a hand-written `Request { … }` would.
public struct APIRequest: Sendable {
    /// The method, as written in the method attribute (`GET`, `LINK`).
    public var method: String
    /// The path template; placeholders are replaced in place by `path(_:_:encoded:)`.
    public var path: String
    /// How bodies and fields are encoded; JSON unless the type or method says otherwise.
    public var encoding: APIEncoding = .json()
    /// How query, field and body keys are written and response keys read.
    public var keyMapping: KeyMapping = .useDefaultKeys
    /// Where the decoded value sits in the response JSON (`"data.list"`).
    public var responseKeyPath: String?
    /// The whole exchange's deadline, from `@Timeout`.
    public var timeout: Duration?
    /// The retry policy from `@Retry`, added as a retry interceptor for this endpoint only.
    public var retry: RetryInterceptor.Policy?

    var queryItems: [(name: String, value: String?, encoded: Bool)] = []
    var headers: [(name: String, value: String)] = []
    var authorization: Authorization?
    var body: BodyContent = .none
    var errorBody: (@Sendable (Response) -> (any Error & Sendable)?)?
    var blocks: [any RequestBuildable & Sendable] = []

    enum BodyContent: Sendable {
        case none
        case value(any Encodable & Sendable)
        case raw(RequestBody)
        case fields([(name: String, value: any Encodable & Sendable)])
        case parts([MultipartPart])
    }

    /// Starts a call of `method` on `path`.
    public init(method: String, path: String) {
        self.method = method
        self.path = path
    }

    // MARK: Path

    /// Replaces `{name}` or `:name` in the path with `value`, percent-encoded as one segment unless `encoded`.
    public mutating func path(_ name: String, _ value: some LosslessStringConvertible, encoded: Bool = false) {
        replacePlaceholder(name, with: String(value), encoded: encoded)
    }

    /// Replaces `{name}` or `:name` with a string-backed enum's raw value (`Path<Sort>`).
    public mutating func path<Value: RawRepresentable>(_ name: String, _ value: Value, encoded: Bool = false)
    where Value.RawValue: LosslessStringConvertible {
        replacePlaceholder(name, with: String(value.rawValue), encoded: encoded)
    }

    /// Replaces the placeholder with a wrapped path value.
    public mutating func path<Value: LosslessStringConvertible>(
        _ name: String, _ value: Path<Value>, encoded: Bool = false
    ) {
        path(name, value.wrappedValue, encoded: encoded || value.encoded)
    }

    /// Replaces the placeholder with a wrapped string-backed enum (`Path<Sort>`).
    public mutating func path<Value: RawRepresentable>(_ name: String, _ value: Path<Value>, encoded: Bool = false)
    where Value.RawValue: LosslessStringConvertible {
        path(name, value.wrappedValue, encoded: encoded || value.encoded)
    }

    mutating func replacePlaceholder(_ name: String, with value: String, encoded: Bool) {
        let text = encoded ? value : PathTemplate.encodeSegment(value)
        path = PathTemplate.replacing(name, in: path, with: text)
    }

    // MARK: Query

    /// Adds `name=value`; a `nil` value adds nothing, an array repeats the key.
    public mutating func query(_ name: String, _ value: (some QueryValue)?, encoded: Bool = false) {
        guard let value else { return }
        for text in value.queryValues {
            queryItems.append((keyMapping.encode(name), text, encoded))
        }
    }

    /// Adds one item per entry, keyed by the dictionary's own keys, in key order.
    public mutating func query(_ name: String, _ value: [String: String]?, encoded: Bool = false) {
        guard let value else { return }
        for key in value.keys.sorted() {
            queryItems.append((key, value[key], encoded))
        }
    }

    /// Adds the wrapped value of a `Query<Value>` parameter, under its own name when it has one.
    public mutating func query<Value: QueryValue>(_ name: String, _ value: Query<Value>, encoded: Bool = false) {
        query(value.name ?? name, value.wrappedValue, encoded: encoded || value.encoded)
    }

    /// Adds the wrapped value of an optional `Query<Value?>` parameter.
    public mutating func query<Value: QueryValue>(_ name: String, _ value: Query<Value?>, encoded: Bool = false) {
        query(value.name ?? name, value.wrappedValue, encoded: encoded || value.encoded)
    }

    // MARK: Headers

    /// Sets each header, replacing earlier values of the same name (method headers win over type headers).
    public mutating func headers(_ fields: [String: String]) {
        for name in fields.keys.sorted() {
            header(name, fields[name])
        }
    }

    /// Sets header `name`; `nil` leaves it out.
    public mutating func header(_ name: String, _ value: (some CustomStringConvertible)?) {
        headers.removeAll { $0.name.lowercased() == name.lowercased() }
        if let value { headers.append((name, value.description)) }
    }

    /// Sets the header of a `Header<Value>` parameter.
    public mutating func header<Value: CustomStringConvertible>(_ name: String, _ value: Header<Value>) {
        header(value.name ?? name, value.wrappedValue)
    }

    /// Sets the header of an optional `Header<Value?>` parameter; `nil` leaves it out.
    public mutating func header<Value: CustomStringConvertible>(_ name: String, _ value: Header<Value?>) {
        header(value.name ?? name, value.wrappedValue)
    }

    /// Sets an `Authorization` header from one of the core's schemes (`.bearer`, `.basic`).
    public mutating func authorization(_ authorization: Authorization) {
        self.authorization = authorization
    }

    // MARK: Bodies

    /// Sends `value` as the whole body, encoded with the endpoint's encoding.
    public mutating func body(_ value: some Encodable & Sendable) {
        body = .value(value)
    }

    /// Sends the wrapped value of a `Body<Value>` parameter.
    public mutating func body<Value: Encodable & Sendable>(_ value: Body<Value>) {
        body = .value(value.wrappedValue)
    }

    /// Sends a body you built yourself (`RequestBody.file`, a stream).
    public mutating func body(_ value: RequestBody) {
        body = .raw(value)
    }

    /// Adds a field of the JSON object or form; a `nil` value is left out.
    public mutating func field(_ name: String, _ value: (some Encodable & Sendable)?) {
        guard let value else { return }
        var fields: [(name: String, value: any Encodable & Sendable)] = []
        if case .fields(let existing) = body { fields = existing }
        fields.append((name, value))
        body = .fields(fields)
    }

    /// Adds the wrapped value of a `Field<Value>` parameter.
    public mutating func field<Value: Encodable & Sendable>(_ name: String, _ value: Field<Value>) {
        field(value.name ?? name, value.wrappedValue)
    }

    /// Adds the wrapped value of an optional `Field<Value?>` parameter; `nil` leaves the field out.
    public mutating func field<Value: Encodable & Sendable>(_ name: String, _ value: Field<Value?>) {
        field(value.name ?? name, value.wrappedValue)
    }

    /// Adds a multipart part.
    public mutating func part(_ part: MultipartPart) {
        var parts: [MultipartPart] = []
        if case .parts(let existing) = body { parts = existing }
        parts.append(part)
        body = .parts(parts)
    }

    /// Adds a part from bytes, text or a file `URL` (files are streamed from disk, not loaded).
    public mutating func part(name: String, filename: String? = nil, mimeType: String? = nil, _ value: some PartValue) {
        part(value.multipartPart(name: name, filename: filename, mimeType: mimeType.map(MIMEType.init(rawValue:))))
    }

    /// Adds one text part per entry of a dictionary, in key order.
    public mutating func part(name: String, filename: String? = nil, mimeType: String? = nil, _ value: [String: String])
    {
        for key in value.keys.sorted() { part(.field(name: key, value: value[key] ?? "")) }
    }

    /// Adds the part of a `Part<Value>` parameter, with its own name, filename and type when given.
    public mutating func part<Value: PartValue>(
        name: String, filename: String? = nil, mimeType: String? = nil, _ value: Part<Value>
    ) {
        part(
            name: value.name ?? name, filename: value.filename ?? filename, mimeType: value.mimeType ?? mimeType,
            value.wrappedValue)
    }

    // MARK: Options

    /// Decodes a non-2xx body as `type` and attaches it to the thrown `CourierError` as `underlying`.
    public mutating func errorBody<ErrorBody: Decodable & Error & Sendable>(_ type: ErrorBody.Type) {
        errorBody = { response in
            try? response.request.options[JSONDecoderOption.self].decode(ErrorBody.self, from: response.body)
        }
    }

    /// Adds the retry interceptor for this endpoint only.
    public mutating func retry(maxAttempts: Int) {
        var policy = RetryInterceptor.Policy()
        policy.maxAttempts = maxAttempts
        retry = policy
    }

    /// Applies a core block passed as a parameter (`progress: OnUploadProgress`), after everything else.
    public mutating func apply(_ block: some RequestBuildable & Sendable) {
        blocks.append(block)
    }
}
