import Courier
import CourierCInterceptors
import Logging
import Synchronization

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes log lines for the built-in `logging` interceptor: one `write(2)` per line, so lines
/// from concurrent sends never interleave, to a descriptor the program owns or to a file this
/// writer opened (and closes when the last logger using it is gone).
final class LogLineWriter: Sendable {
    /// Where lines go.
    enum Destination: Equatable {
        /// A descriptor the program keeps open (2 is standard error); never closed here.
        case descriptor(Int32)
        /// A file appended to, created with mode 0644 when missing.
        case file(String)
    }

    private let descriptor: Int32
    private let ownsDescriptor: Bool
    private let writing = Protected(())

    /// Opens `destination`; a file that cannot be opened throws, naming it and why.
    init(_ destination: Destination) throws(LogDestinationError) {
        switch destination {
        case .descriptor(let descriptor):
            guard fcntl(descriptor, F_GETFD) != -1 else {
                throw LogDestinationError(message: "fd \(descriptor) is not an open descriptor")
            }
            self.descriptor = descriptor
            ownsDescriptor = false
        case .file(let path):
            let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else {
                throw LogDestinationError(message: "path \(path) cannot be opened: \(String(cString: strerror(errno)))")
            }
            self.descriptor = descriptor
            ownsDescriptor = true
        }
    }

    deinit {
        if ownsDescriptor { close(descriptor) }
    }

    /// Writes `line` and a newline; a failed write is dropped, as a logger must not fail a send.
    func write(_ line: String) {
        var bytes = Array(line.utf8)
        bytes.append(UInt8(ascii: "\n"))
        writing.withLock { _ in
            bytes.withUnsafeBytes { buffer in
                var rest = buffer
                while let start = rest.baseAddress, !rest.isEmpty {
                    let written = systemWrite(descriptor, start, rest.count)
                    if written > 0 {
                        rest = UnsafeRawBufferPointer(rebasing: rest[written...])
                    } else if written < 0 && errno == EINTR {
                        continue
                    } else {
                        return
                    }
                }
            }
        }
    }

    /// A logger labelled `courier` writing through this writer at `level` and above.
    func logger(level: Logger.Level) -> Logger {
        var logger = Logger(label: "courier") { _ in LineHandler(writer: self) }
        logger.logLevel = level
        return logger
    }

    /// Formats each event as `time level message key=value…` for `writer`.
    private struct LineHandler: LogHandler {
        let writer: LogLineWriter
        var logLevel: Logger.Level = .info
        var metadata: Logger.Metadata = [:]

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let time = Date().formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
            var line = "\(time) \(event.level) \(event.message)"
            let fields = metadata.merging(event.metadata ?? [:]) { $1 }
            for (key, value) in fields.sorted(by: { $0.key < $1.key }) { line += " \(key)=\(value)" }
            writer.write(line)
        }
    }
}

/// A log destination that cannot be used.
struct LogDestinationError: Error {
    let message: String
}

/// `write(2)`, under a name of its own: `LogLineWriter.write(_:)` would hide it.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
