import Logging

/// A swift-log handler that writes each message as plain lines to standard error, for `--verbose`:
/// no timestamp, level or metadata, since `LoggingInterceptor` already puts what matters in the message.
struct LineLogHandler: LogHandler {
    /// Where each message goes, with a newline.
    let console: Console
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        console.err("\(event.message)\n")
    }

    /// A logger named `courier` that writes through this handler at `level` and above.
    static func logger(console: Console, level: Logger.Level) -> Logger {
        var logger = Logger(label: "courier") { _ in LineLogHandler(console: console) }
        logger.logLevel = level
        return logger
    }
}
