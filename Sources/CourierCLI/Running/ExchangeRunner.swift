public import Courier
import Foundation
import HTTPTypes

/// Sends one request through a client and prints the parts of the exchange `selection` asks for.
///
/// The response is streamed: a body is buffered only up to `formatLimit` to lay out JSON, and a
/// larger one, or any body when nothing is formatted, goes to the output chunk by chunk.
public struct ExchangeRunner: Sendable {
    /// The client that sends the request.
    public var client: Client
    /// Where output goes.
    public var console: Console
    /// How bodies and heads are laid out.
    public var printer: ExchangePrinter
    /// Which parts are printed.
    public var selection: PrintSelection
    /// `--timings`: after the exchange, where its time went, on standard error.
    public var printsTimings = false
    /// Whether a 3xx, 4xx or 5xx response makes the exit status 3, 4 or 5.
    public var checksStatus = false
    /// The most body bytes buffered to format; larger bodies are printed as they arrive.
    public var formatLimit = 16 * 1024 * 1024
    /// The most request body bytes printed for `B`; a larger body is summarised.
    public var requestBodyLimit = 1024 * 1024
    /// `--all`: the parts printed of each redirect exchange before the final one (`--history-print`,
    /// or the same as `selection`); `nil` prints only the final exchange.
    public var historySelection: PrintSelection?
    /// `--stream`: the body is printed line by line as it arrives, each line laid out on its own
    /// (a JSON line of NDJSON formatted, an SSE field as it is), instead of buffered to format; a
    /// line may be at most `formatLimit` bytes long.
    public var streamsLines = false

    /// A runner printing `selection` of each exchange with `printer` to `console`.
    public init(client: Client, console: Console, printer: ExchangePrinter, selection: PrintSelection) {
        self.client = client
        self.console = console
        self.printer = printer
        self.selection = selection
    }

    /// Sends `request`, prints the exchange, and returns the exit status it earns.
    ///
    /// - Throws: the `CourierError` the send or the body ended with.
    public func run(_ request: Request) async throws -> ExitStatus {
        let start = ContinuousClock.now
        let response = try await client.stream(request)
        // HTTPie's "elapsed time", as requests measures it: until the response head.
        let elapsed = ContinuousClock.now - start
        if let historySelection {
            for hop in response.history where try await printExchange(of: hop, selection: historySelection) {
                console.out("\n\n")
            }
        }
        let printedBody = try await printExchange(of: response, selection: selection)
        if selection.contains(.metadata) {
            if printedBody || !selection.isDisjoint(with: [.requestHead, .requestBody, .responseHead]) {
                console.out(printedBody ? "\n\n" : "\n")
            }
            console.out(Self.metadataLine(elapsed: elapsed))
        }
        if printsTimings {
            var metrics = response.metrics
            if let final = response.bodyStream?.metrics { metrics.complete(with: final) }
            console.err(TimingsWaterfall(metrics: metrics, request: response.request).text)
        }
        let status = checksStatus ? ExitStatus.checking(statusCode: response.status.code) : .success
        if status != .success, !console.isOutTerminal {
            console.err("courier: warning: HTTP \(response.status.code) \(response.status.reasonPhrase)\n")
        }
        return status
    }

    /// HTTPie 3.2's metadata line: `Elapsed time: 0.0123456789s`.
    static func metadataLine(elapsed: Duration) -> String {
        let (seconds, attoseconds) = elapsed.components
        let value = Double(seconds) + Double(attoseconds) / 1e18
        return "Elapsed time: " + String(format: "%.10f", value) + "s\n"
    }

    /// Prints `selection`'s parts of `response` and of the request that got it, and returns whether
    /// a body was printed last, so the next exchange of `--all` is set off by a blank line.
    @discardableResult
    private func printExchange(of response: Response, selection: PrintSelection) async throws -> Bool {
        var requestPrinter = RequestPrinter(console: console, printer: printer, selection: selection)
        requestPrinter.bodyLimit = requestBodyLimit
        let printsResponse = !selection.isDisjoint(with: [.responseHead, .responseBody])
        let printedRequestBody = try await requestPrinter.print(response.request)
        if printedRequestBody, printsResponse { console.out("\n\n") }
        if selection.contains(.responseHead) { console.out(printer.responseHead(response)) }
        guard selection.contains(.responseBody) else {
            response.bodyStream?.discard()
            return printedRequestBody && !printsResponse
        }
        let last = try await printResponseBody(response)
        if console.isOutTerminal, let last, last != UInt8(ascii: "\n") { console.out("\n") }
        return last != nil
    }

    /// Prints the body and returns its last byte printed, so a terminal prompt can start on a line of its own.
    private func printResponseBody(_ response: Response) async throws -> UInt8? {
        let contentType = response.headerFields[.contentType]
        guard let stream = response.bodyStream else {
            return write(printer.body(response.body, contentType: contentType))
        }
        if streamsLines { return try await printLines(of: stream, contentType: contentType) }
        guard printer.pretty != .none || printer.isTerminal else {
            var last: UInt8?
            for try await chunk in stream { last = write(chunk) ?? last }
            return last
        }
        var buffered = Data()
        var iterator = stream.makeAsyncIterator()
        while let chunk = try await iterator.next() {
            buffered.append(chunk)
            guard buffered.count > formatLimit else { continue }
            if printer.isTerminal, buffered.contains(0) {
                stream.discard()
                return write(printer.body(buffered, contentType: contentType))
            }
            var last = write(buffered)
            while let more = try await iterator.next() { last = write(more) ?? last }
            return last
        }
        return write(printer.body(buffered, contentType: contentType))
    }

    /// `--stream`: prints each line of `stream` as soon as its newline arrives, laid out as a body
    /// of `contentType` would be, and a last line without a newline when the body ends.
    ///
    /// Each byte is searched for a newline once, so a line arriving in many chunks costs its
    /// length, not its length times its chunks; a line longer than `formatLimit` fails with
    /// `limitExceeded` instead of growing without bound.
    private func printLines(of stream: ResponseBodyStream, contentType: String?) async throws -> UInt8? {
        var pending = Data()
        var searched = 0
        var last: UInt8?
        for try await chunk in stream {
            pending.append(chunk)
            var start = pending.startIndex
            var from = pending.startIndex + searched
            while let newline = pending[from...].firstIndex(of: UInt8(ascii: "\n")) {
                guard newline - start <= formatLimit else { throw lineTooLong(stream) }
                let line = Data(pending[start..<newline])
                start = pending.index(after: newline)
                from = start
                guard !printer.isTerminal || !line.contains(0) else {
                    stream.discard()
                    return write(printer.body(line, contentType: contentType))
                }
                last = write(layOut(line: line, contentType: contentType) + [UInt8(ascii: "\n")])
            }
            // The printed lines go once per chunk, not once per line.
            pending.removeSubrange(..<start)
            searched = pending.count
            guard pending.count <= formatLimit else { throw lineTooLong(stream) }
        }
        if !pending.isEmpty { last = write(layOut(line: pending, contentType: contentType)) }
        return last
    }

    /// The error for a line longer than `formatLimit`, the rest of the body discarded.
    private func lineTooLong(_ stream: ResponseBodyStream) -> CourierError {
        stream.discard()
        return CourierError(
            .limitExceeded,
            "a line of the streamed body is longer than \(formatLimit) bytes; without --stream the body is printed as it arrives",
            source: "--stream")
    }

    /// One line of a streamed body laid out on its own, without a trailing newline.
    private func layOut(line: Data, contentType: String?) -> Data {
        guard !line.isEmpty else { return line }
        var laidOut = printer.body(line, contentType: contentType)
        while laidOut.last == UInt8(ascii: "\n") { laidOut.removeLast() }
        return laidOut
    }

    /// Writes `bytes` to standard output and returns the last one.
    private func write(_ bytes: Data) -> UInt8? {
        console.writeOut(bytes)
        return bytes.last
    }
}
