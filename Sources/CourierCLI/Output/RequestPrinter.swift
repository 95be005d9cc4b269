public import Courier
import Foundation
import HTTPTypes

/// Prints the request parts of `--print` (`H` and `B`): for an exchange after it was sent, and for
/// `--offline` instead of sending.
public struct RequestPrinter: Sendable {
    /// Where output goes.
    public var console: Console
    /// How the head and body are laid out.
    public var printer: ExchangePrinter
    /// Which parts are printed; only `H` and `B` concern this printer.
    public var selection: PrintSelection
    /// The most request body bytes printed for `B`; a larger body is summarised.
    public var bodyLimit = 1024 * 1024

    /// A printer of `selection`'s request parts, laid out by `printer`, to `console`.
    public init(console: Console, printer: ExchangePrinter, selection: PrintSelection) {
        self.console = console
        self.printer = printer
        self.selection = selection
    }

    /// Prints the head and body `selection` asks for, and returns whether a body was printed.
    ///
    /// A body of unknown length (`--chunked`) is sent with `Transfer-Encoding: chunked`, which the
    /// transports add below the request, so the head shows it as the server will see it.
    @discardableResult
    public func print(_ request: Request) async throws -> Bool {
        if selection.contains(.requestHead) {
            var shown = request
            if let body = request.body, body.contentLength == nil, shown.headerFields[.transferEncoding] == nil {
                shown.headerFields[.transferEncoding] = "chunked"
            }
            console.out(printer.requestHead(shown))
        }
        guard selection.contains(.requestBody), let body = request.body, !body.isEmpty else { return false }
        if let length = body.contentLength, length > bodyLimit {
            console.out("(\(ByteCount.format(length)) body not shown)")
            return true
        }
        let bytes = try await body.collect(upTo: bodyLimit)
        console.writeOut(printer.body(bytes, contentType: request.headerFields[.contentType]))
        return true
    }
}
