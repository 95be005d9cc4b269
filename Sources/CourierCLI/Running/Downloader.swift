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
    /// `--continue`: resume the part of ``outputPath`` a broken download left (`Client.download(_:to:resume:)`).
    public var resumes = false
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
        if let outputPath { return try await run(request, to: outputPath) }
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

    /// Saves to `path` through `Client.download`, which writes `path.part` and can resume it.
    private func run(_ request: Request, to path: String) async throws -> ExitStatus {
        let bar = console.isErrTerminal ? ProgressBar(columns: console.errColumns) : nil
        let clock = ContinuousClock()
        let start = clock.now
        let lastDrawn = Protected(start)
        let console = self.console
        let response: Response
        do {
            response = try await client.download(request, to: path, resume: resumes) { written, total in
                guard let bar else { return }
                let now = clock.now
                guard
                    lastDrawn.withLock({ last in
                        guard now - last >= .milliseconds(100) || written == total else { return false }
                        last = now
                        return true
                    })
                else { return }
                console.err(bar.line(received: written, total: total, elapsed: now - start))
            }
        } catch let error as CourierError where error.code == .unacceptableStatus && error.response != nil {
            let response = error.response!
            console.err(printer.responseHead(response))
            return .checking(statusCode: response.status.code)
        }
        if console.isErrTerminal {
            console.err(printer.responseHead(response))
            let size = ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.int64Value
            console.err("\nSaved \(ByteCount.format(size ?? 0)) to \(path)\n")
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

    /// The file name a response suggests: `Content-Disposition`'s `filename*` (RFC 6266 and
    /// 8187: `UTF-8''percent-encoded`) or `filename` (a token or a quoted string), else the URL's
    /// last path segment, else `index`; always a safe plain name, never a path (`safeName`).
    static func suggestedFilename(contentDisposition: String?, url: URL) -> String {
        if let disposition = contentDisposition {
            let parameters = dispositionParameters(disposition)
            let extended = parameters["filename*"].flatMap { value -> String? in
                let parts = value.split(separator: "'", maxSplits: 2, omittingEmptySubsequences: false)
                guard parts.count == 3, parts[0].lowercased() == "utf-8" else { return nil }
                return String(parts[2]).removingPercentEncoding
            }
            for candidate in [extended, parameters["filename"]] {
                if let candidate, let name = safeName(candidate) { return name }
            }
        }
        return safeName(url.lastPathComponent) ?? "index"
    }

    /// The `name=value` parameters after a disposition's type, names lowercased; a quoted value
    /// may hold `;` and backslash-escaped characters.
    static func dispositionParameters(_ disposition: String) -> [String: String] {
        var parameters: [String: String] = [:]
        var rest = Substring(disposition)
        guard let firstSemicolon = rest.firstIndex(of: ";") else { return [:] }
        rest = rest[rest.index(after: firstSemicolon)...]
        while !rest.isEmpty {
            rest = rest.drop { $0 == " " || $0 == "\t" || $0 == ";" }
            guard let equals = rest.firstIndex(of: "=") else { break }
            let name = rest[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            rest = rest[rest.index(after: equals)...].drop { $0 == " " }
            var value = ""
            if rest.first == "\"" {
                rest = rest.dropFirst()
                while let character = rest.first, character != "\"" {
                    rest = rest.dropFirst()
                    if character == "\\", let escaped = rest.first {
                        value.append(escaped)
                        rest = rest.dropFirst()
                    } else {
                        value.append(character)
                    }
                }
                rest = rest.dropFirst()
                rest = rest.drop { $0 != ";" }
            } else {
                let end = rest.firstIndex(of: ";") ?? rest.endIndex
                value = rest[..<end].trimmingCharacters(in: .whitespaces)
                rest = rest[end...]
            }
            if parameters[name] == nil { parameters[name] = value }
        }
        return parameters
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
