public import Courier
import Foundation
package import HTTPTypes

#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

extension URLRequest {
    /// A `URLRequest` carrying the same method, URL, header lines, body, timeout and transport hints.
    ///
    /// Bytes become `httpBody`; a single file becomes `httpBodyStream`; a body mixing bytes and files
    /// (a streamed multipart) is read into memory, since `URLRequest` has no way to chain them.
    ///
    /// - Throws: `invalidRequest` for a streamed body, which `URLRequest` cannot carry without
    ///   consuming it; send it through a `Client` instead.
    public init(_ request: Request) throws {
        self.init(headOf: request, omitting: [])
        if let timeout = request.timeout {
            timeoutInterval = timeout.seconds
        }
        if let body = request.body {
            try attach(body)
        }
    }

    /// The method, URL, header lines (but those named in `omitting`) and transport hints of
    /// `request`, without its body or timeout: what `URLSessionTransport` sends a body and a
    /// deadline of its own with.
    package init(headOf request: Request, omitting omitted: Set<HTTPField.Name>) {
        self.init(url: request.url)
        httpMethod = request.method.rawValue
        for field in request.wireHeaderFields where !omitted.contains(field.name) {
            addValue(field.value, forHTTPHeaderField: field.name.rawName)
        }
        let options = request.options
        if let policy = options[CachePolicyOption.self] { cachePolicy = policy }
        if let type = options[NetworkServiceTypeOption.self] { networkServiceType = type }
        httpShouldHandleCookies = options[ShouldHandleCookiesOption.self]
        let access = options[NetworkAccessOption.self]
        allowsCellularAccess = access.cellular
        #if canImport(Darwin)
        allowsExpensiveNetworkAccess = access.expensiveNetwork
        allowsConstrainedNetworkAccess = access.constrainedNetwork
        #endif
    }

    /// Builds a `URLRequest` from builder blocks: `try URLRequest { Method.GET; BaseURL(api); "users" }`.
    public init(@RequestBuilder _ content: () throws -> RequestBlockGroup) throws {
        try self.init(Request(content))
    }

    private mutating func attach(_ body: RequestBody) throws {
        switch body.storage {
        case .segments(let segments):
            if segments.count == 1, case .file(let url, _) = segments[0] {
                httpBodyStream = InputStream(url: url)
                return
            }
            var data = Data()
            for segment in segments {
                switch segment {
                case .bytes(let bytes):
                    data.append(bytes)
                case .file(let url, _):
                    do {
                        data.append(try Data(contentsOf: url))
                    } catch {
                        throw CourierError(
                            .encodingFailed, "cannot read \(url.path)", source: "URLRequest", underlying: error)
                    }
                }
            }
            httpBody = data
        case .stream:
            throw CourierError(
                .invalidRequest,
                "a streamed body cannot be carried by URLRequest without consuming it; send it with a Client",
                source: "URLRequest")
        case .deferred:
            try attach(body.resolved(with: .standard))
        }
    }
}

extension Request {
    /// A request with the same method, URL, headers, body, timeout and transport hints as `urlRequest`.
    ///
    /// `URLRequest` keeps headers in a dictionary, so their original order is not known.
    ///
    /// - Throws: `invalidRequest` when the URL is missing or relative, the method is not a token,
    ///   or a header is invalid.
    public init(_ urlRequest: URLRequest) throws {
        guard let url = urlRequest.url, let scheme = url.scheme, !scheme.isEmpty, url.host != nil else {
            throw CourierError(.invalidRequest, "the URLRequest has no absolute URL", source: "URLRequest")
        }
        guard let method = HTTPRequest.Method(urlRequest.httpMethod ?? "GET") else {
            throw CourierError(
                .invalidRequest, "\"\(urlRequest.httpMethod ?? "")\" is not a valid method", source: "URLRequest")
        }
        var fields = HTTPFields()
        for (name, value) in (urlRequest.allHTTPHeaderFields ?? [:]).sorted(by: { $0.key < $1.key }) {
            fields.append(try RequestDraft.validatedField(name, value, block: "URLRequest"))
        }
        // A property left at URLRequest's default is no hint: only what the caller changed is recorded.
        var options = RequestOptions()
        var hints: Set<TransportHint> = []
        if urlRequest.cachePolicy != .useProtocolCachePolicy {
            options[CachePolicyOption.self] = urlRequest.cachePolicy
            options[CacheModeOption.self] = CacheMode(urlRequest.cachePolicy)
            hints.insert(.cachePolicy)
        }
        if urlRequest.networkServiceType != .default {
            options[NetworkServiceTypeOption.self] = urlRequest.networkServiceType
            hints.insert(.networkServiceType)
        }
        options[ShouldHandleCookiesOption.self] = urlRequest.httpShouldHandleCookies
        if !urlRequest.httpShouldHandleCookies { hints.insert(.httpShouldHandleCookies) }
        options[NetworkAccessOption.self].cellular = urlRequest.allowsCellularAccess
        if !urlRequest.allowsCellularAccess { hints.insert(.cellularAccess) }
        #if canImport(Darwin)
        options[NetworkAccessOption.self].expensiveNetwork = urlRequest.allowsExpensiveNetworkAccess
        options[NetworkAccessOption.self].constrainedNetwork = urlRequest.allowsConstrainedNetworkAccess
        if !urlRequest.allowsExpensiveNetworkAccess { hints.insert(.expensiveNetworkAccess) }
        if !urlRequest.allowsConstrainedNetworkAccess { hints.insert(.constrainedNetworkAccess) }
        #endif
        if !hints.isEmpty { options[TransportHintsOption.self] = hints }
        var body: RequestBody?
        if let data = urlRequest.httpBody {
            body = .data(data, type: fields[.contentType].map(MIMEType.init(rawValue:)))
        } else if let stream = urlRequest.httpBodyStream {
            body = .stream(InputStreamChunks(stream), type: fields[.contentType].map(MIMEType.init(rawValue:)))
        }
        self.init(
            method: method, url: url, headerFields: fields, body: body,
            timeout: .milliseconds(Int64(urlRequest.timeoutInterval * 1000)), options: options)
    }
}

/// The bytes of an `InputStream`, read once in 64 KiB pieces.
private struct InputStreamChunks: AsyncSequence, @unchecked Sendable {
    typealias Element = Data
    // Unchecked: InputStream is not Sendable; the one-shot body guarantees a single iteration.
    let stream: InputStream

    init(_ stream: InputStream) { self.stream = stream }

    func makeAsyncIterator() -> Iterator { Iterator(stream: stream) }

    struct Iterator: AsyncIteratorProtocol {
        let stream: InputStream
        var opened = false

        mutating func next() async throws -> Data? {
            if !opened {
                stream.open()
                opened = true
            }
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            let count = stream.read(&buffer, maxLength: buffer.count)
            if count < 0 {
                throw CourierError(
                    .encodingFailed, "the URLRequest body stream failed", source: "URLRequest",
                    underlying: stream.streamError)
            }
            if count == 0 {
                stream.close()
                return nil
            }
            return Data(buffer[..<count])
        }
    }
}
