import Courier
import CourierAsyncHTTPClient
import CourierCurl
import CourierTestServer
import Foundation
import HTTPTypes
import Logging

/// The transports the built-in interceptors' server tests run on: each interceptor must behave
/// the same over libcurl and over AsyncHTTPClient (body discards, replays, slots held).
enum ServerTransport: String, CaseIterable, Sendable, CustomStringConvertible {
    case curl
    case asyncHTTPClient

    static let all = allCases

    var description: String { rawValue }

    /// Made once for the test process and never shut down, as `CurlTransport.shared` is.
    private static let asyncHTTPClientTransport: AsyncHTTPClientTransport = {
        var configuration = AsyncHTTPClientTransport.Configuration()
        // Every suite starts at once on two cores: a loopback connect may wait seconds.
        configuration.connectTimeout = .seconds(60)
        return AsyncHTTPClientTransport(configuration: configuration)
    }()

    /// A client on this transport with `interceptors`.
    func client(interceptors: [any Interceptor], configuration: Client.Configuration = Client.Configuration()) -> Client
    {
        switch self {
        case .curl: Client(transport: CurlTransport.shared, interceptors: interceptors, configuration: configuration)
        case .asyncHTTPClient:
            Client(transport: Self.asyncHTTPClientTransport, interceptors: interceptors, configuration: configuration)
        }
    }
}

/// Records the waits a retry interceptor asks for, instead of waiting.
final class SleepRecorder: Sendable {
    private let waits = Protected<[Duration]>([])
    var all: [Duration] { waits.withLock { $0 } }
    var sleep: RetryInterceptor.Sleep {
        { [self] duration in self.waits.withLock { $0.append(duration) } }
    }
}

/// Keeps every log entry written through loggers it makes, rendered with metadata.
final class LogCapture: Sendable {
    private let entries = Protected<[String]>([])
    var all: [String] { entries.withLock { $0 } }

    func logger(level: Logger.Level) -> Logger {
        var logger = Logger(label: "test") { [self] _ in Handler(capture: self) }
        logger.logLevel = level
        return logger
    }

    fileprivate func append(_ line: String) { entries.withLock { $0.append(line) } }

    private struct Handler: LogHandler {
        let capture: LogCapture
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let all = metadata.merging(event.metadata ?? [:]) { $1 }
            let rendered = all.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            capture.append("\(event.level) \(event.message) [\(rendered)]")
        }
    }
}

/// Counts the times the stages after it are reached, and how many are in flight at once.
final class PassCounter: Sendable {
    private let counts = Protected((total: 0, current: 0, max: 0))
    var total: Int { counts.withLock { $0.total } }
    var maxInFlight: Int { counts.withLock { $0.max } }

    var interceptor: ClosureInterceptor {
        ClosureInterceptor("PassCounter") { [self] request, _, next in
            self.counts.withLock { counts in
                counts.total += 1
                counts.current += 1
                counts.max = max(counts.max, counts.current)
            }
            defer { self.counts.withLock { $0.current -= 1 } }
            return try await next(request)
        }
    }
}

extension TestServer {
    /// An absolute URL on this server for `path`, which may carry a query.
    func url(_ path: String) -> URL {
        URL(string: baseURL.absoluteString + path)!
    }

    /// How many requests reached the server whose path starts with `prefix`.
    func hits(_ prefix: String) -> Int {
        receivedRequests.filter { $0.path.hasPrefix(prefix) }.count
    }
}

/// A unique key for routes that count per key, such as `/flaky/{key}/…`.
func uniqueKey() -> String { UUID().uuidString.lowercased() }
