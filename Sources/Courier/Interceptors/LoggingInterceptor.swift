import HTTPTypes
public import Logging
import Synchronization

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Logs each exchange through swift-log: one line per exchange at `level`, and at `debug` the
/// full request and response heads and bodies, with secrets hidden everywhere.
///
/// The summary line reads `GET https://api.example.com/users → 200 OK (1234 bytes, 12.5 ms)`
/// (the size is the announced one while the body still streams)
/// and carries `request-id`, `method`, `url`, `status` and `duration-ms` as metadata. At
/// `debug` the response body is read (within `Limits.maxBodyBytes`) so it can be logged, and
/// the response passed on is buffered; at higher levels nothing is read and streams stay streams.
///
/// `Authorization`, `Proxy-Authorization`, `Cookie`, `Set-Cookie` and the names in `redaction`
/// are replaced with `<redacted>` in every line, the optional curl command included; their values
/// are also cut out of logged bodies and error messages wherever they appear (a body that
/// echoes the request). Other secrets in bodies are logged as they are: log bodies only where
/// they hold none.
///
/// Register it first (outermost), so it logs the exchange once, as the caller sees it, however
/// often inner stages retry.
///
/// A transport set up to skip a security check (TLS verification off) gets one `warning` line the
/// first time this interceptor sees it, naming the check, as curl's `-k` shows in `--verbose`.
public struct LoggingInterceptor: Interceptor {
    /// Where lines go; `nil` uses the client's logger (`InterceptorContext.logger`).
    public var logger: Logger?
    /// The level of the one-line summary.
    public var level: Logger.Level
    /// What to hide.
    public var redaction: Redaction
    /// Whether to log the request as a curl command (at `debug`), redacted.
    public var logsCurlCommand: Bool
    /// The most body bytes written to one log entry; longer bodies are cut with a note.
    public var maxLoggedBodyBytes: Int
    /// Whether a transport that skips a security check gets its warning line (on by default; off
    /// for a caller that shows the warning its own way, as `courier` does).
    public var warnsAboutDisabledSecurityChecks: Bool
    /// The transports already warned about.
    private let warned = WarnedTransports()

    /// Creates a logging interceptor.
    public init(
        logger: Logger? = nil, level: Logger.Level = .info, redaction: Redaction = Redaction(),
        logsCurlCommand: Bool = false, maxLoggedBodyBytes: Int = 4096, warnsAboutDisabledSecurityChecks: Bool = true
    ) {
        self.logger = logger
        self.level = level
        self.redaction = redaction
        self.logsCurlCommand = logsCurlCommand
        self.maxLoggedBodyBytes = maxLoggedBodyBytes
        self.warnsAboutDisabledSecurityChecks = warnsAboutDisabledSecurityChecks
    }

    public func intercept(_ request: Request, context: InterceptorContext, next: Next) async throws -> Response {
        // The lines are written by synchronous functions, so a send in flight holds only `exchange`
        // in its frame, not the formatting's temporaries (3,280 bytes when they were inline).
        guard let exchange = startLogging(request, context: context) else { return try await next(request) }
        let start = ContinuousClock.now
        do {
            var response = try await next(request)
            if exchange.verbose {
                response = try await response.collectingBody(upTo: context.limits.maxBodyBytes)
            }
            logResponse(response, of: exchange, elapsed: ContinuousClock.now - start)
            return response
        } catch {
            logFailure(error, of: exchange, elapsed: ContinuousClock.now - start)
            throw error
        }
    }

    /// What the lines of one exchange share: the logger with its request ID, and the request as shown.
    private struct Exchange {
        var logger: Logger
        /// Whether the heads and bodies are logged (`debug`), not only the summary line.
        let verbose: Bool
        /// `GET https://…`, the URL redacted.
        let target: String
        let method: String
        let shownURL: String
        /// The request's secret values, cut out wherever they appear.
        let secrets: [String]
    }

    /// Warns about a transport's disabled checks once, and logs the request at `debug`; `nil` when
    /// the logger would write none of this exchange's lines, which skips the redaction work (it
    /// parses the URL).
    private func startLogging(_ request: Request, context: InterceptorContext) -> Exchange? {
        var logger = self.logger ?? context.logger
        let verbose = logger.logLevel <= .debug
        if warnsAboutDisabledSecurityChecks, let transport = context.transport, logger.logLevel <= .warning,
            warned.isFirstSight(of: transport)
        {
            for check in transport.disabledSecurityChecks { logger.warning("\(check)") }
        }
        guard verbose || logger.logLevel <= level else { return nil }
        logger[metadataKey: "request-id"] = "\(context.requestID)"
        let shown = redaction.redacting(request)
        let secrets = redaction.secrets(in: request.headerFields, url: request.url)
        let target = "\(request.method) \(shown.url.absoluteString)"
        if verbose {
            let entry = Self.head("→ \(target)", shown.headerFields) + bodyText(of: request.body)
            logger.debug("\(redaction.scrubbing(entry, secrets: secrets))")
            if logsCurlCommand { logger.debug("\(redaction.scrubbing(shown.curlCommand, secrets: secrets))") }
        }
        return Exchange(
            logger: logger, verbose: verbose, target: target, method: "\(request.method)",
            shownURL: shown.url.absoluteString, secrets: secrets)
    }

    /// The response's head and body at `debug`, and the summary line at `level`.
    private func logResponse(_ response: Response, of exchange: Exchange, elapsed: Duration) {
        if exchange.verbose {
            let secrets = (exchange.secrets + redaction.secrets(in: response.headerFields)).sorted {
                $0.count > $1.count
            }
            let status = "← \(response.status.code) \(response.status.reasonPhrase)"
            let entry = Self.head(status, redaction.redacting(response.headerFields)) + bodyText(of: response.body)
            exchange.logger.debug("\(redaction.scrubbing(entry, secrets: secrets))")
        }
        let size =
            !response.isStreaming
            ? "\(response.body.count) bytes"
            : response.bodyStream?.expectedLength.map { "\($0) bytes" } ?? "streaming"
        // A cache inside this stage says what it did (RFC 9211), which a summary line should show.
        let cacheStatus = response.headerFields[values: .cacheStatus].last
        var metadata: Logger.Metadata = [
            "method": "\(exchange.method)", "url": "\(exchange.shownURL)",
            "status": "\(response.status.code)", "duration-ms": "\(Self.milliseconds(elapsed))",
        ]
        if let cacheStatus { metadata["cache-status"] = "\(cacheStatus)" }
        exchange.logger.log(
            level: level,
            "\(exchange.target) → \(response.status.code) \(response.status.reasonPhrase) (\(size), \(Self.milliseconds(elapsed)) ms\(cacheStatus.map { ", \($0)" } ?? ""))",
            metadata: metadata)
    }

    /// The summary line of an exchange that failed, its reason scrubbed of the request's secrets.
    private func logFailure(_ error: any Error, of exchange: Exchange, elapsed: Duration) {
        let code = (error as? CourierError)?.code.description ?? "error"
        let reason = redaction.scrubbing("\(error)", secrets: exchange.secrets)
        exchange.logger.log(
            level: level, "\(exchange.target) failed: \(reason) (\(Self.milliseconds(elapsed)) ms)",
            metadata: [
                "method": "\(exchange.method)", "url": "\(exchange.shownURL)",
                "error": "\(code)", "duration-ms": "\(Self.milliseconds(elapsed))",
            ])
    }

    /// A start line followed by one line per header field.
    static func head(_ startLine: String, _ fields: HTTPFields) -> String {
        ([startLine] + fields.map { "\($0.name.rawName): \($0.value)" }).joined(separator: "\n")
    }

    /// The body as it goes in a log entry: a blank line then the text, or a note for what cannot be shown.
    func bodyText(of body: RequestBody?) -> String {
        guard let body, !body.isEmpty else { return "" }
        guard let segments = body.segments else { return "\n\n(streamed body, not logged)" }
        if segments.count == 1, case .bytes(let bytes) = segments[0] { return bodyText(of: bytes) }
        return "\n\n(\(body.contentLength.map { "\($0) bytes" } ?? "a body") from files and memory, not logged)"
    }

    /// `bytes` as text when they are UTF-8, cut at `maxLoggedBodyBytes`.
    func bodyText(of bytes: Data) -> String {
        guard !bytes.isEmpty else { return "" }
        let shown = bytes.prefix(maxLoggedBodyBytes)
        guard
            let text = String(validating: shown, as: UTF8.self) ?? String(validating: shown.dropLast(3), as: UTF8.self)
        else { return "\n\n(\(bytes.count) bytes of binary data)" }
        let cut = bytes.count > shown.count ? "\n(\(bytes.count - shown.count) more bytes not logged)" : ""
        return "\n\n" + text + cut
    }

    static func milliseconds(_ duration: Duration) -> String {
        TextFormat.oneDecimal(duration.seconds * 1000)
    }
}

/// The transports a `LoggingInterceptor` has warned about, so each is warned about once: by
/// identity for a class (one per client's transport), by type for a value.
private final class WarnedTransports: Sendable {
    private let seen = Protected<Set<ObjectIdentifier>>([])

    func isFirstSight(of transport: any Transport) -> Bool {
        guard !transport.disabledSecurityChecks.isEmpty else { return false }
        let identity =
            type(of: transport) is AnyObject.Type
            ? ObjectIdentifier(transport as AnyObject) : ObjectIdentifier(type(of: transport))
        return seen.withLock { $0.insert(identity).inserted }
    }
}
