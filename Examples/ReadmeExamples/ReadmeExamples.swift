public import CourierCurl
public import CourierRecording
public import Foundation
import HTTPTypes

/// The examples of the README and of the DocC articles, compiled and tested: every block between
/// `README:` markers appears word for word in a document of the documentation set, and
/// `ReadmeExamplesTests` checks the request each one builds.
public enum ReadmeExamples {
    static let token = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhZGEifQ.c2lnbmF0dXJl"

    /// The Transports article's client on the AsyncHTTPClient transport (a global in
    /// AsyncHTTPClientExample.swift, as the article writes it), for a test to send through and then shut its transport down.
    public static var asyncHTTPClientClient: Client { client }

    /// The Transports article's client on the URLSession transport (URLSessionExample.swift), for a test to send through.
    public static func makeURLSessionClient() throws -> Client { try urlSessionClient() }

    /// The README's opening example: any `Encodable` credentials, posted as JSON.
    public static func intro(credentials: some Encodable & Sendable) throws -> Request {
        // README: intro
        let request = try Request {
            Method.POST
            BaseURL("https://api.example.com")
            Endpoint("/v1/sessions")
            Accept(.json)
            RequestBody.json(credentials)
        }
        // README: end
        return request
    }

    // README: login
    struct Credentials: Encodable, Sendable {
        let username: String
        let password: String
    }

    public static func login() throws -> Request {
        try Request {
            Method.POST
            BaseURL("https://api.example.com")
            Endpoint("/v1/sessions")
            Accept(.json)
            IdempotencyKey("3f1c7a52-login")
            RequestBody.json(Credentials(username: "ada", password: "correct horse"))
        }
    }
    // README: end

    // README: headers
    public static func search(term: String, page: Int, locale: String?) throws -> Request {
        try Request {
            BaseURL("https://api.example.com/v1/")
            Endpoint("search")
            Query("q", term)
            Query("page", page)
            Headers {
                AcceptHeader(.json)
                AcceptHeader(.plainText).quality(0.5)
                if let locale { AcceptLanguageHeader(locale) }
                UserAgentHeader("Courier-Example/1.0")
                AuthorizationHeader.bearer(token)
            }
            CacheControl([.noCache])
        }
    }
    // README: end

    // README: upload
    public static func upload(photo: URL) throws -> Request {
        try Request {
            Method.POST
            BaseURL("https://api.example.com")
            Endpoint("/v1/albums/7/photos")
            Authorization.bearer(token)
            RequestBody.multipart(strategy: .streamed(bufferSize: 256 * 1024), boundary: "courier-boundary") {
                MultipartPart.field(name: "title", value: "Harbour at dusk")
                MultipartPart.file(name: "photo", fileURL: photo, type: .jpeg)
            }
        }
    }
    // README: end

    // README: repository
    public struct UsersAPI: Sendable {
        @RequestBuilder public var getUser: @Sendable (_ id: String) -> any RequestBuildable
        @RequestBuilder public var listUsers: @Sendable (_ page: Int) -> any RequestBuildable
    }

    public static let users = UsersAPI(
        getUser: { id in
            BaseURL("https://api.example.com/v1/")
            Endpoint("users/")
            id
            Accept(.json)
        },
        listUsers: { page in
            BaseURL("https://api.example.com/v1/")
            Endpoint("users")
            Query("page", page)
            Accept(.json)
        }
    )
    // README: end

    /// The repository in use: one endpoint materialised as a request.
    public static func userRequest() throws -> Request {
        // README: repository-usage
        let request = try ReadmeExamples.users.getUser("42").request
        // GET https://api.example.com/v1/users/42
        // README: end
        return request
    }

    // README: curl
    public static func curlCommand() throws -> String {
        let request = try Request {
            Method.PATCH
            BaseURL("https://api.example.com")
            Endpoint("/v1/users/42")
            ContentType(.json)
            RequestBody.string(#"{"bio": "It's 'quoted'"}"#)
        }
        return request.curlCommand
    }
    // README: end

    // README: send
    public struct Echo: Decodable, Sendable {
        public let method: String
        public let path: String
        public let headers: [[String]]
    }

    struct StampRequestID: Interceptor {
        func intercept(_ request: Request, context: InterceptorContext, next: Next) async throws -> Response {
            let stamped = try request.updating { Header.custom("X-Request-ID").setValue(context.requestID) }
            return try await next(stamped)
        }
    }

    public static func fetchEcho(from server: URL) async throws -> Echo {
        let client = Client(interceptors: [StampRequestID()])
        let request = try Request {
            BaseURL(server)
            Endpoint("/echo/hello")
            Query("lang", "en")
            Accept(.json)
        }
        return try await client.send(request, decoding: Echo.self)
    }
    // README: end

    // README: cache
    public static func fetchTwice(_ url: URL, cacheFolder: URL) async throws -> [String?] {
        let cache = CacheInterceptor(storage: .directory(cacheFolder, maxBytes: 50 << 20))
        let client = Client(interceptors: [LoggingInterceptor(), cache, RetryInterceptor()])
        let first = try await client.send(Request(method: .get, url: url))
        let again = try await client.send(Request(method: .get, url: url))  // answered by the cache
        return [first.headerFields[.cacheStatus], again.headerFields[.cacheStatus]]
    }
    // README: end

    // README: bad-input
    public static func injectedHeader() -> CourierError? {
        do {
            _ = try Request {
                BaseURL("https://api.example.com")
                Header.custom("X-Note").setValue("hi\r\nX-Admin: yes")
            }
            return nil
        } catch let error as CourierError {
            return error
        } catch {
            return nil
        }
    }
    // README: end

    // README: events
    public static func firstTicks(from server: URL, count: Int) async throws -> [ServerSentEvent] {
        let client = Client()
        let request = try Request {
            BaseURL(server)
            Endpoint("/sse")
            Query("count", 1000)
        }
        var ticks: [ServerSentEvent] = []
        for try await event in client.events(request) where event.type == "tick" {
            ticks.append(event)
            if ticks.count == count { break }
        }
        return ticks
    }
    // README: end

    // README: interceptors
    public static func productionClient(refreshToken: @escaping @Sendable () async throws -> String) -> Client {
        var retryPolicy = RetryInterceptor.Policy()
        retryPolicy.maxAttempts = 4
        retryPolicy.addsIdempotencyKey = true
        return Client(interceptors: [
            LoggingInterceptor(redaction: Redaction(headers: [HTTPField.Name("X-Api-Key")!])),
            MetricsInterceptor(dimensions: [("client", "billing")]),
            TracingInterceptor(),
            SingleFlightInterceptor(),
            RetryInterceptor(policy: retryPolicy, budget: RetryBudget(maxTokens: 20, depositPerRequest: 0.1)),
            ConcurrencyLimitInterceptor(maxConcurrentRequests: 32, maxConcurrentRequestsPerHost: 8),
            AuthenticationInterceptor.bearer(token: nil) { _ in try await refreshToken() },
            ValidationInterceptor(statuses: 200..<300, contentTypes: .fromAcceptHeader),
        ])
    }
    // README: end

    // README: explain
    public static func explain(_ request: Request, with client: Client) async -> Explanation? {
        let (explaining, recorder) = client.explaining()
        _ = try? await explaining.send(request)
        return recorder.last  // .text for a terminal, .json() for tools
    }
    // README: end

    // README: recording
    /// Sends `request` through a cassette (recorded from the server the first time, replayed after)
    /// and writes what was sent and received to `archive` for a HAR viewer, secrets redacted.
    public static func sendRecorded(_ request: Request, cassette: URL, archive: URL) async throws -> Response {
        let recorder = HARRecorder()
        let replaying = try CassetteTransport(cassette: cassette, mode: .once, recordingThrough: CurlTransport.shared)
        let response = try await Client(transport: replaying, interceptors: [recorder]).send(request)
        try recorder.write(to: archive)
        return response
    }
    // README: end
}
