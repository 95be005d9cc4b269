public import Courier
public import Foundation
import HTTPTypes

/// `--download`: streams a 2xx response body into a file, never holding it in memory, with a
/// progress bar on standard error when that is a terminal and nothing at all when it is not.
///
/// A response that is not 2xx is not saved: its head goes to standard error and the exit status
/// is 3, 4 or 5, as with `--check-status`.
public struct Downloader: Sendable {
    /// The client that sends the request.
    public var client: Client
    /// Where the progress and heads go.
    public var console: Console
    /// How heads are laid out.
    public var printer: ExchangePrinter
    /// `--output`: the file to write; `nil` names it after the response.
    public var outputPath: String?
    /// The directory a file named after the response goes in.
    public var directory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)

    /// A downloader to `outputPath`, or to a file named after the response when it is `nil`.
    public init(client: Client, console: Console, printer: ExchangePrinter, outputPath: String?) {
        self.client = client
        self.console = console
        self.printer = printer
        self.outputPath = outputPath
    }

    /// Sends `request` and saves the body; returns the exit status.
    public func run(_ request: Request) async throws -> ExitStatus {
        let response = try await client.stream(request)
        guard (200..<300).contains(response.status.code) else {
            response.bodyStream?.discard()
            console.err(printer.responseHead(response))
            return .checking(statusCode: response.status.code)
        }
        if console.isErrTerminal { console.err(printer.responseHead(response)) }
        let destination = outputPath.map { URL(fileURLWithPath: $0) } ?? uniqueDestination(for: response)
        guard FileManager.default.createFile(atPath: destination.path, contents: nil),
            let file = try? FileHandle(forWritingTo: destination)
        else {
            response.bodyStream?.discard()
            throw CourierError(.invalidRequest, "cannot create \(destination.path)", source: "--download")
        }
        defer { try? file.close() }
        let received = try await save(response, to: file)
        if console.isErrTerminal {
            console.err("\nSaved \(ByteCount.format(received)) to \(destination.path)\n")
        }
        return .success
    }

    private func save(_ response: Response, to file: FileHandle) async throws -> Int64 {
        guard let stream = response.bodyStream else {
            try file.write(contentsOf: response.body)
            return Int64(response.body.count)
        }
        let bar = console.isErrTerminal ? ProgressBar(columns: console.errColumns) : nil
        let clock = ContinuousClock()
        let start = clock.now
        var lastDrawn = start
        var received: Int64 = 0
        for try await chunk in stream {
            try file.write(contentsOf: chunk)
            received += Int64(chunk.count)
            if let bar, clock.now - lastDrawn >= .milliseconds(100) {
                lastDrawn = clock.now
                console.err(bar.line(received: received, total: stream.expectedLength, elapsed: lastDrawn - start))
            }
        }
        if let bar {
            console.err(
                bar.line(received: received, total: stream.expectedLength ?? received, elapsed: clock.now - start))
        }
        return received
    }

    /// A file in `directory` named after the response, with `-1`, `-2`… added rather than overwrite one.
    func uniqueDestination(for response: Response) -> URL {
        let name = Self.suggestedFilename(
            contentDisposition: response.headerFields[.contentDisposition], url: response.request.url)
        var candidate = directory.appendingPathComponent(name)
        var suffix = 1
        while FileManager.default.fileExists(atPath: candidate.path) {
            candidate = directory.appendingPathComponent("\(name)-\(suffix)")
            suffix += 1
        }
        return candidate
    }

    /// The file name a response suggests: `Content-Disposition`'s `filename`, else the URL's last
    /// path segment, else `index`; always a safe plain name, never a path (`safeName`).
    static func suggestedFilename(contentDisposition: String?, url: URL) -> String {
        if let disposition = contentDisposition,
            let marker = disposition.range(of: "filename=", options: .caseInsensitive)
        {
            var value = disposition[marker.upperBound...].prefix { $0 != ";" }.trimmingCharacters(in: .whitespaces)
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 {
                value = String(value.dropFirst().dropLast())
            }
            if let name = safeName(value) { return name }
        }
        return safeName(url.lastPathComponent) ?? "index"
    }

    /// What a server suggests, reduced to a name that writes a plain file in the download folder:
    /// the last segment after `/` or `\\`, without control characters, without leading dots (no
    /// dotfiles, no `..`: HTTPie's rule) or surrounding spaces, at most 255 bytes; `nil` when
    /// nothing is left.
    static func safeName(_ suggested: String) -> String? {
        let lastSegment = suggested.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
        var name = String(
            String.UnicodeScalarView(lastSegment.unicodeScalars.filter { !TerminalSafeText.isControl($0) }))
        name = String(name.drop { $0 == "." || $0.isWhitespace }).trimmingCharacters(in: .whitespaces)
        while name.utf8.count > 255 { name.removeLast() }
        return name.isEmpty ? nil : name
    }
}
