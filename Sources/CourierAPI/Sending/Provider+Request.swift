import Foundation
import HTTPTypes

extension Provider {
    /// The `Request` an endpoint call describes, built and validated by the core builder but not sent.
    ///
    /// Each endpoint also has a generated `<name>Request(…)` function returning this, so
    /// `curlCommand`, `explaining()` and tests can look at a call without making it.
    public func request(for endpoint: APIRequest) throws -> Request {
        let jsonCoders = Self.jsonCoders(for: endpoint)
        var request = try Request {
            Method.custom(endpoint.method)
            BaseURL(Self.directory(of: baseURL))
            Endpoint(Self.relative(endpoint.path))
            JSONCoding(encoder: jsonCoders.encoder, decoder: jsonCoders.decoder)
            if let formEncoder = Self.formEncoder(for: endpoint) { FormCoding(encoder: formEncoder) }
            if let authorization = endpoint.authorization { authorization }
            for header in endpoint.headers {
                Courier.Header.custom(header.name).setValue(header.value)
            }
            if let body = Self.body(of: endpoint) { body }
            if let timeout = endpoint.timeout { Timeout(timeout) }
            for block in endpoint.blocks { ParameterBlock(base: block) }
        }
        if !endpoint.queryItems.isEmpty {
            Self.appendQuery(endpoint.queryItems, to: &request.url)
        }
        request.options[ResponseKeyPathOption.self] = endpoint.responseKeyPath
        request.options[ErrorBodyOption.self] = endpoint.errorBody
        if let policy = endpoint.retry {
            request.options[InterceptorsOption.self].append(RetryInterceptor(policy: policy))
        }
        return request
    }

    /// The base URL with a trailing `/`, so an endpoint path is appended to its path instead of replacing it.
    static func directory(of baseURL: String) -> String {
        baseURL.hasSuffix("/") ? baseURL : baseURL + "/"
    }

    /// The endpoint path without its leading `/`, resolved below the base URL's path.
    static func relative(_ path: String) -> String {
        var path = Substring(path)
        while path.hasPrefix("/") { path = path.dropFirst() }
        return path.isEmpty ? "." : String(path)
    }

    /// The endpoint's JSON coders; the default encoder sorts keys, so a body's bytes are reproducible.
    static func jsonCoders(for endpoint: APIRequest) -> (encoder: JSONEncoder, decoder: JSONDecoder) {
        var customEncoder: JSONEncoder?
        if case .json(let encoder, _) = endpoint.encoding { customEncoder = encoder }
        let encoder = customEncoder ?? JSONEncoder()
        if customEncoder == nil { encoder.outputFormatting = [.sortedKeys] }
        let decoder = endpoint.encoding.decoder ?? JSONDecoder()
        switch endpoint.keyMapping {
        case .useDefaultKeys:
            break
        case .snakeCase:
            if customEncoder == nil { encoder.keyEncodingStrategy = .convertToSnakeCase }
            if endpoint.encoding.decoder == nil { decoder.keyDecodingStrategy = .convertFromSnakeCase }
        case .custom(let to, let from):
            if customEncoder == nil {
                encoder.keyEncodingStrategy = .custom { path in
                    FieldsObject.Key(stringValue: to(path.last?.stringValue ?? ""))
                }
            }
            if endpoint.encoding.decoder == nil {
                decoder.keyDecodingStrategy = .custom { path in
                    FieldsObject.Key(stringValue: from(path.last?.stringValue ?? ""))
                }
            }
        }
        return (encoder, decoder)
    }

    static func formEncoder(for endpoint: APIRequest) -> URLFormEncoder? {
        guard case .urlForm(let custom, _) = endpoint.encoding else { return nil }
        if let custom { return custom }
        var encoder = URLFormEncoder()
        switch endpoint.keyMapping {
        case .useDefaultKeys: break
        case .snakeCase: encoder.keyEncoding = .convertToSnakeCase
        case .custom(let to, _): encoder.keyEncoding = .custom(to)
        }
        return encoder
    }

    static func body(of endpoint: APIRequest) -> RequestBody? {
        switch endpoint.body {
        case .none:
            return nil
        case .raw(let body):
            return body
        case .value(let value):
            if case .urlForm = endpoint.encoding { return .urlEncoded(value) }
            return .json(value)
        case .fields(let fields):
            let object = FieldsObject(fields: fields)
            if case .urlForm = endpoint.encoding { return .urlEncoded(object) }
            return .json(object)
        case .parts(let parts):
            return .multipart(strategy: .streamed(bufferSize: 64 * 1024)) {
                for part in parts { part }
            }
        }
    }

    static func appendQuery(_ items: [(name: String, value: String?, encoded: Bool)], to url: inout URL) {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return }
        let added = items.map { item in
            let name = item.encoded ? item.name : QueryText.encode(item.name)
            guard let value = item.value else { return name }
            return name + "=" + (item.encoded ? value : QueryText.encode(value))
        }.joined(separator: "&")
        if let existing = components.percentEncodedQuery, !existing.isEmpty {
            components.percentEncodedQuery = existing + "&" + added
        } else {
            components.percentEncodedQuery = added
        }
        if let joined = components.url { url = joined }
    }
}
