import HTTPTypes

#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif

/// A private HTTP cache in the chain (RFC 9111), as OkHttp's cache interceptor and `URLCache` are.
///
/// ```swift
/// let client = Client(transport: CurlTransport(), interceptors: [
///     CacheInterceptor(storage: .directory(cacheFolder, maxBytes: 50 << 20)),
///     RetryInterceptor(),
/// ])
/// ```
///
/// It stores what a private cache may (RFC 9111 §3): responses to `GET` with explicit freshness,
/// `public` or `private`, or a heuristically cacheable status; never `no-store`, never `Vary: *`,
/// never a partial (`206`) response. A stored response answers while fresh (`max-age`, `Expires`
/// with `Date`, `Age`; else 10% of the time since `Last-Modified`); a stale one is revalidated
/// with `If-None-Match`/`If-Modified-Since`, and a `304` refreshes it. The request's own
/// directives (`no-cache`, `no-store`, `max-age`, `max-stale`, `min-fresh`, `only-if-cached`)
/// and its ``CacheMode`` (the seed's `CachePolicy`) are honoured, as are RFC 5861's
/// `stale-while-revalidate` (one background revalidation at a time per URI) and `stale-if-error`.
/// A successful unsafe request (`POST`, `PUT`, `DELETE`…) removes what is stored for its URI and
/// for same-origin `Location` and `Content-Location`.
///
/// Every response that passes through says what happened in an RFC 9211 `Cache-Status` field:
/// `Courier; hit; ttl=42`, `Courier; fwd=uri-miss; fwd-status=200; stored; ttl=60`,
/// `Courier; fwd=stale; fwd-status=304; stored; ttl=60`, `Courier; fwd=method; fwd-status=201`.
/// A body is stored as the caller reads it, never read ahead; `stored` there means it is being
/// stored, and an entry that ends past the per-entry limit, or fails, is dropped.
///
/// Place it outside retries and authentication, so a hit costs neither; inside logging, so the
/// log shows `Cache-Status`.
public final class CacheInterceptor: Interceptor, Sendable {
    /// Where responses are kept.
    public let storage: CacheStorage
    private let now: @Sendable () -> Date
    /// Keys with a background revalidation under way, so each starts once.
    private let revalidating = Protected<Set<String>>([])

    /// A cache keeping responses in `storage` (in memory, 10 MiB, by default).
    public convenience init(storage: CacheStorage = .memory()) {
        self.init(storage: storage, now: { Date() })
    }

    /// A cache whose clock is `now`, for tests that move time.
    package init(storage: CacheStorage, now: @escaping @Sendable () -> Date) {
        self.storage = storage
        self.now = now
    }

    public var name: String { "CacheInterceptor" }

    private var store: any CacheStore { storage.store }

    public nonisolated(nonsending) func intercept(
        _ request: Request, context: InterceptorContext, next: Next
    ) async throws -> Response {
        // Decided by a synchronous function, and each way on is a function of its own, so a send
        // in flight holds only its own way's frame (4,272 bytes when all of it was inline).
        switch route(request, next: next) {
        case .answered(let response):
            return response
        case .unstored(let request, let forward):
            return try await forwardUnstored(request, forward, next: next)
        case .fetch(let request, let key, let forward):
            return try await fetch(request, key: key, forward: forward, next: next)
        case .validate(let request, let entry, let freshness, let forward):
            return try await validate(entry, freshness, request: request, forward: forward, next: next)
        }
    }

    /// What the cache does with a request, decided before anything is sent on.
    private enum Route {
        /// Answered from the cache (or refused with `504` under `only-if-cached`).
        case answered(Response)
        /// Sent on, nothing stored: a method other than GET, or a GET with its caller's own conditions.
        case unstored(Request, CacheStatus.Forward)
        /// Sent on, and stored when the response may be.
        case fetch(Request, key: String, forward: CacheStatus.Forward)
        /// Sent on with `entry`'s validators.
        case validate(Request, StoredResponse, CacheFreshness, forward: CacheStatus.Forward)
    }

    private func route(_ request: Request, next: Next) -> Route {
        var request = request
        // The cache honours the seed's CachePolicy, so no transport has to.
        request.options[TransportHintsOption.self].remove(.cachePolicy)
        guard request.method == .get else { return .unstored(request, .method) }
        if request.headerFields[.ifNoneMatch] != nil || request.headerFields[.ifModifiedSince] != nil {
            // The caller validates on its own: pass its conditions on and store nothing from it.
            return .unstored(request, .request)
        }
        let key = Self.key(for: request.url)
        let mode = request.options[CacheModeOption.self]
        let lookup = CacheLookup.decide(
            fields: request.headerFields, mode: mode, stored: store.variants(for: key), now: now())
        switch lookup {
        case .serve(let entry, let freshness):
            return .answered(
                Self.answer(entry, freshness, to: request, CacheStatus(hit: true, timeToLive: freshness.timeToLive)))
        case .serveWhileRevalidating(let entry, let freshness):
            revalidateInBackground(entry, request: request, next: next)
            return .answered(
                Self.answer(
                    entry, freshness, to: request,
                    CacheStatus(hit: true, timeToLive: freshness.timeToLive, detail: "stale-while-revalidate")))
        case .gatewayTimeout:
            var fields = HTTPFields()
            fields[.cacheStatus] = CacheStatus(detail: "only-if-cached").value
            return .answered(Response(status: .gatewayTimeout, headerFields: fields, request: request))
        case .forward(let reason):
            return .fetch(request, key: key, forward: reason)
        case .validate(let entry, let freshness, let reason):
            return .validate(request, entry, freshness, forward: reason)
        }
    }

    /// Sends `request` on and stores nothing; a successful unsafe method invalidates what is
    /// stored for what it changed.
    @inline(never)  // a frame of its own: the other ways' state is not held while this one waits
    private nonisolated(nonsending) func forwardUnstored(
        _ request: Request, _ forward: CacheStatus.Forward, next: Next
    ) async throws -> Response {
        let response = try await next(request)
        return unstored(response, to: request, forward)
    }

    private func unstored(_ response: Response, to request: Request, _ forward: CacheStatus.Forward) -> Response {
        if forward == .method, !Self.safeMethods.contains(request.method), (200..<400).contains(response.status.code) {
            invalidate(after: request, response: response)
        }
        return Self.marked(response, CacheStatus(forward: forward, forwardStatus: response.status.code))
    }

    static let safeMethods: Set<HTTPRequest.Method> = [.get, .head, .options, .trace]

    /// The primary cache key (RFC 9111 §2): the method and the URI without its fragment.
    static func key(for url: URL) -> String {
        let text = url.absoluteString
        return "GET " + (text.firstIndex(of: "#").map { String(text[..<$0]) } ?? text)
    }

    // MARK: Forwarding and storing

    /// Sends `request` on and stores the response if it may be stored.
    @inline(never)  // a frame of its own: the other ways' state is not held while this one waits
    private nonisolated(nonsending) func fetch(
        _ request: Request, key: String, forward: CacheStatus.Forward, next: Next
    ) async throws -> Response {
        let requestTime = now()
        let response = try await next(request)
        return store(response, for: request, key: key, requestTime: requestTime, forward: forward)
    }

    /// `response` marked with what the cache did, and recorded for storing when it may be stored.
    private func store(
        _ response: Response, for request: Request, key: String, requestTime: Date, forward: CacheStatus.Forward
    ) -> Response {
        let responseTime = now()
        var status = CacheStatus(forward: forward, forwardStatus: response.status.code)
        guard let varying = storableVariant(response, for: request) else { return Self.marked(response, status) }
        var response = response
        let entry = StoredResponse(
            key: key, response: response, body: Data(), varying: varying, requestTime: requestTime,
            responseTime: responseTime)
        let expected = response.bodyStream?.expectedLength ?? Int64(response.body.count)
        guard expected <= store.maxEntryBytes - entry.size else { return Self.marked(response, status) }
        if let stream = response.bodyStream {
            response.bodyStream = stream.observed(by: CacheBodyRecorder(entry: entry, store: store))
        } else {
            var whole = entry
            whole.body = response.body
            store.save(whole)
        }
        status.stored = true
        status.timeToLive = freshness(of: entry, at: responseTime).timeToLive
        return Self.marked(response, status)
    }

    /// The request's values for the fields the response varies on, when RFC 9111 §3 lets a
    /// private cache store `response` to `request`; `nil` when it does not.
    private func storableVariant(_ response: Response, for request: Request) -> [String: String?]? {
        let code = response.status.code
        guard request.method == .get, code >= 200, code != 206, code != 304 else { return nil }
        let requestDirectives = CacheDirectives(request.headerFields)
        let fields = response.headerFields
        let directives = CacheDirectives(fields)
        guard !requestDirectives.noStore, !directives.noStore,
            let names = StoredResponse.varyingNames(fields)
        else { return nil }
        let explicit =
            directives.isPublic || directives.isPrivate || directives.maxAge != nil || fields[.expires] != nil
        guard explicit || CacheFreshness.heuristicallyCacheable.contains(code) else { return nil }
        var varying: [String: String?] = [:]
        for name in names { varying[name] = StoredResponse.varyingValue(of: name, in: request.headerFields) }
        return varying
    }

    private func freshness(of entry: StoredResponse, at time: Date) -> CacheFreshness {
        CacheFreshness(
            status: entry.status, fields: entry.headerFields, requestTime: entry.requestTime,
            responseTime: entry.responseTime, now: time)
    }

    // MARK: Validation

    /// Asks the origin whether `entry` is still good; answers with it on a `304`, with it stale
    /// on an error `stale-if-error` covers, else with the origin's new response.
    @inline(never)  // a frame of its own: the other ways' state is not held while this one waits
    private nonisolated(nonsending) func validate(
        _ entry: StoredResponse, _ freshness: CacheFreshness, request: Request, forward: CacheStatus.Forward,
        next: Next
    ) async throws -> Response {
        let requestTime = now()
        let response: Response
        do {
            response = try await next(Self.conditional(request, for: entry))
        } catch {
            return try staleAnswer(after: error, entry, freshness, request: request, forward: forward)
        }
        return revalidated(
            entry, freshness, with: response, request: request, requestTime: requestTime, forward: forward)
    }

    /// `entry` stale, when the validation failed with an error (not a cancellation) that
    /// `stale-if-error` covers; otherwise the error is thrown on.
    private func staleAnswer(
        after error: any Error, _ entry: StoredResponse, _ freshness: CacheFreshness, request: Request,
        forward: CacheStatus.Forward
    ) throws -> Response {
        guard let failure = error as? CourierError, failure.code != .cancelled,
            allowsStaleIfError(entry, freshness, request: request)
        else { throw error }
        return Self.answer(
            entry, freshness, to: request,
            CacheStatus(forward: forward, timeToLive: freshness.timeToLive, detail: "stale-if-error"))
    }

    /// The response to a validation: `entry` refreshed by a `304`, `entry` stale for a `5xx`
    /// `stale-if-error` covers, or the origin's response (stored if it may be).
    private func revalidated(
        _ entry: StoredResponse, _ freshness: CacheFreshness, with response: Response, request: Request,
        requestTime: Date, forward: CacheStatus.Forward
    ) -> Response {
        let code = response.status.code
        if code == 304 {
            response.bodyStream?.discard()
            var refreshed = entry
            refreshed.update(with: response.headerFields)
            refreshed.requestTime = requestTime
            refreshed.responseTime = now()
            store.save(refreshed)
            let renewed = self.freshness(of: refreshed, at: refreshed.responseTime)
            return Self.answer(
                refreshed, renewed, to: request,
                CacheStatus(forward: forward, forwardStatus: 304, stored: true, timeToLive: renewed.timeToLive))
        }
        if [500, 502, 503, 504].contains(code), allowsStaleIfError(entry, freshness, request: request) {
            response.bodyStream?.discard()
            return Self.answer(
                entry, freshness, to: request,
                CacheStatus(
                    forward: forward, forwardStatus: code, timeToLive: freshness.timeToLive, detail: "stale-if-error"))
        }
        return store(response, for: request, key: entry.key, requestTime: requestTime, forward: forward)
    }

    /// Whether RFC 5861's `stale-if-error`, from the stored response or the request, covers
    /// serving `entry` at its staleness; never past `must-revalidate` or `no-cache`.
    private func allowsStaleIfError(_ entry: StoredResponse, _ freshness: CacheFreshness, request: Request) -> Bool {
        let stored = CacheDirectives(entry.headerFields)
        guard !stored.mustRevalidate, !stored.noCache else { return false }
        let window = max(stored.staleIfError ?? -1, CacheDirectives(request.headerFields).staleIfError ?? -1)
        return window >= 0 && freshness.staleness <= window
    }

    /// `request` with `entry`'s validators as conditions (RFC 9111 §4.3.1).
    static func conditional(_ request: Request, for entry: StoredResponse) -> Request {
        var request = request
        let fields = entry.headerFields
        if let tag = fields[.eTag] { request.headerFields[.ifNoneMatch] = tag }
        if let modified = fields[.lastModified] { request.headerFields[.ifModifiedSince] = modified }
        return request
    }

    /// Revalidates `entry` on a task of its own, unless one is under way for its key; the result
    /// is stored for the next request, and a failure leaves the entry as it was.
    private func revalidateInBackground(_ entry: StoredResponse, request: Request, next: Next) {
        let key = entry.key + "\n" + entry.variantKey
        guard revalidating.withLock({ $0.insert(key).inserted }) else { return }
        let conditional = Self.conditional(request, for: entry)
        Task {
            defer { _ = revalidating.withLock { $0.remove(key) } }
            let requestTime = now()
            guard let response = try? await next(conditional) else { return }
            let answer = revalidated(
                entry, CacheFreshness(age: 0, lifetime: 0, isHeuristic: true), with: response, request: request,
                requestTime: requestTime, forward: .stale)
            // Reading the body is what stores a new response; a 304's refresh is already saved.
            _ = try? await answer.collectingBody(upTo: store.maxEntryBytes)
        }
    }

    // MARK: Invalidation

    /// Removes what is stored for `request`'s URI and for its response's same-origin `Location`
    /// and `Content-Location` (RFC 9111 §4.4).
    private func invalidate(after request: Request, response: Response) {
        store.removeVariants(for: Self.key(for: request.url))
        for field in [HTTPField.Name.location, .contentLocation] {
            guard let value = response.headerFields[field], let target = URL(string: value, relativeTo: request.url),
                Self.sameOrigin(target, request.url)
            else { continue }
            store.removeVariants(for: Self.key(for: target.absoluteURL))
        }
    }

    static func sameOrigin(_ a: URL, _ b: URL) -> Bool {
        a.scheme?.lowercased() == b.scheme?.lowercased() && a.host?.lowercased() == b.host?.lowercased()
            && (a.port ?? defaultPort(a)) == (b.port ?? defaultPort(b))
    }

    private static func defaultPort(_ url: URL) -> Int? {
        switch url.scheme?.lowercased() {
        case "http": 80
        case "https": 443
        default: nil
        }
    }

    // MARK: Answers

    /// `entry` as the response to `request`, with its `Age` (RFC 9111 §5.1) and `status`.
    static func answer(
        _ entry: StoredResponse, _ freshness: CacheFreshness, to request: Request, _ status: CacheStatus
    ) -> Response {
        var fields = entry.headerFields
        fields[.age] = String(freshness.age)
        let response = Response(
            status: HTTPResponse.Status(code: entry.status, reasonPhrase: entry.reason), headerFields: fields,
            body: entry.body, request: request)
        return marked(response, status)
    }

    /// `response` with `status` appended to its `Cache-Status`.
    static func marked(_ response: Response, _ status: CacheStatus) -> Response {
        var response = response
        response.headerFields.append(HTTPField(name: .cacheStatus, value: status.value))
        return response
    }
}
