public import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where output goes and what it goes to: the two streams and whether each is a terminal.
///
/// The terminal flags decide the defaults HTTPie has (colours, `--print hb` or `b`, a progress
/// bar); tests inject them instead of needing a pseudo-terminal.
public struct Console: Sendable {
    /// Writes bytes to standard output.
    public var writeOut: @Sendable (Data) -> Void
    /// Writes bytes to standard error.
    public var writeErr: @Sendable (Data) -> Void
    /// Whether standard output is a terminal.
    public var isOutTerminal: Bool
    /// Whether standard error is a terminal.
    public var isErrTerminal: Bool
    /// The width of the terminal on standard error, for the progress bar.
    public var errColumns: Int

    /// A console over the given writers, for tests and for the demo.
    public init(
        isOutTerminal: Bool, isErrTerminal: Bool, errColumns: Int = 80,
        writeOut: @escaping @Sendable (Data) -> Void, writeErr: @escaping @Sendable (Data) -> Void
    ) {
        self.isOutTerminal = isOutTerminal
        self.isErrTerminal = isErrTerminal
        self.errColumns = errColumns
        self.writeOut = writeOut
        self.writeErr = writeErr
    }

    /// The process's standard output and error, with their terminal state read from the file descriptors.
    public static var standard: Console {
        Console(
            isOutTerminal: isatty(STDOUT_FILENO) == 1, isErrTerminal: isatty(STDERR_FILENO) == 1,
            errColumns: terminalColumns(STDERR_FILENO),
            writeOut: { FileHandle.standardOutput.write($0) },
            writeErr: { FileHandle.standardError.write($0) })
    }

    /// Writes `text` to standard output.
    public func out(_ text: String) { writeOut(Data(text.utf8)) }

    /// Writes `text` to standard error.
    public func err(_ text: String) { writeErr(Data(text.utf8)) }

    /// Writes the one line an error gets: `courier: error: …`.
    public func error(_ message: String) {
        let line = message.split(whereSeparator: \.isNewline).joined(separator: " ")
        err("courier: error: \(line)\n")
    }

    /// The columns of the terminal on `descriptor`, or `COLUMNS`, or 80.
    static func terminalColumns(_ descriptor: Int32) -> Int {
        var size = winsize()
        if ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return ProcessInfo.processInfo.environment["COLUMNS"].flatMap(Int.init) ?? 80
    }
}
