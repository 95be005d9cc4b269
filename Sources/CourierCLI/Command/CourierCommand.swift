public import ArgumentParser
public import Courier
import CourierCurlImport
import CourierRecording
public import Foundation

/// `courier [METHOD] URL [ITEM…]`: sends one request through Courier's pipeline and prints the exchange.
public struct CourierCommand: AsyncParsableCommand {
    /// The version `--version` and the default `User-Agent` report.
    public static let version = "0.2.0"

    public static let configuration = CommandConfiguration(
        commandName: "courier",
        abstract: "Send HTTP requests through Courier's pipeline, in the style of HTTPie.",
        usage: HelpText.usage,
        discussion: HelpText.discussion,
        version: version,
        subcommands: [ServeCommand.self, DemoCommand.self]
    )

    @Argument(
        help: ArgumentHelp(
            "[METHOD] URL [ITEM…]: the method (GET without data, POST with), the URL (:8080/path is http://127.0.0.1:8080/path), then items.",
            valueName: "request"))
    var request: [String] = []

    @Option(
        name: .customLong("curl-import"),
        help: ArgumentHelp(
            "Send the request a curl command line describes (as pasted from API docs or a browser's Copy as cURL), instead of METHOD URL ITEM….",
            valueName: "curl command"))
    var curlImport: String?

    @OptionGroup(title: "Body") var body: BodyOptions
    @OptionGroup(title: "Output") var output: OutputOptions
    @OptionGroup(title: "Pipeline") var pipeline: PipelineOptions
    @OptionGroup(title: "TLS and proxies") var network: NetworkOptions
    @OptionGroup(title: "Sessions") var sessions: SessionOptions

    /// The command with no arguments, as argument-parser creates it before parsing.
    public init() {}

    public func validate() throws {
        if curlImport != nil, !request.isEmpty {
            throw ValidationError("--curl-import describes the whole request; give no METHOD, URL or items with it")
        }
        if curlImport != nil, sessions.chosen != nil {
            throw ValidationError("--curl-import describes the whole request; --session works with METHOD URL ITEM…")
        }
        if curlImport != nil, body.raw != nil || body.multipart || body.boundary != nil {
            throw ValidationError(
                "--curl-import describes the whole body; --raw, --multipart and --boundary cannot be used with it")
        }
    }

    /// Reads piped input, then builds, sends and prints the request; a failure becomes the exit status.
    public func run() async throws {
        let status = await execute(
            console: .standard, standardInput: body.ignoreStdin ? nil : await StandardInput.read())
        if status != .success { throw ExitCode(status.rawValue) }
    }

    /// Builds, sends and prints the request; every error becomes one `courier: error:` line and a status.
    ///
    /// - Parameter extraInterceptors: interceptors added innermost, for the demo.
    public func execute(
        console: Console, standardInput: Data?, extraInterceptors: [any Interceptor] = []
    ) async -> ExitStatus {
        let console = console.quieted(level: output.quiet)
        do {
            var command = self
            let session = try command.openSession()
            return try await command.perform(
                console: console, standardInput: standardInput, extraInterceptors: extraInterceptors,
                session: session)
        } catch {
            console.error(ErrorReport.message(for: error))
            return .failing(with: error)
        }
    }

    /// The body of ``execute(console:standardInput:extraInterceptors:)``, with `--session`'s
    /// session (its credentials already adopted by this command when the command line gives none).
    private func perform(
        console: Console, standardInput: Data?, extraInterceptors: [any Interceptor],
        session: Session?
    ) async throws -> ExitStatus {
        var built: Request
        if let curlImport {
            let imported = try CurlCommandImport(curlImport)
            for note in imported.notes { console.err("courier: note: curl's \(note)\n") }
            built = imported.request
        } else {
            built = try makeRequest(standardInput: standardInput, withCredentials: output.curl || output.offline)
        }
        let line = curlImport == nil ? try RequestLine.parse(request) : nil
        session?.apply(to: &built, given: Set((line?.headerNames ?? []).map { $0.lowercased() }))
        let request = try await body.transfer.apply(to: built)
        let target = try outputConsole(console)
        if output.curl {
            target.out(request.curlCommand + "\n")
            return .success
        }
        if output.offline { return try await printOffline(request, console: target) }
        // --har records innermost, after the credentials and plugins, so the archive shows what was sent.
        let archive = output.har.map { _ in HARRecorder() }
        let status: ExitStatus
        do {
            status = try await pipeline.withClient(
                adding: (archive.map { [$0] } ?? []) + extraInterceptors, network: network,
                console: console, cookieJar: session?.cookieJar
            ) { client in
                guard pipeline.explains else { return try await send(request, with: client, console: target) }
                let (explaining, recorder) = client.explaining()
                defer { printExplanation(recorder.last, console: target) }
                return try await send(request, with: explaining, console: target)
            }
        } catch {
            // A failed exchange is recorded too (status 0, the error in the comment), which is when it helps most.
            try? writeArchive(archive)
            throw error
        }
        try writeArchive(archive)
        try session?.save(headers: line?.headerValues ?? [], auth: pipeline.sessionAuth)
        return status
    }

    /// Writes `--har`'s archive to its file.
    private func writeArchive(_ archive: HARRecorder?) throws {
        guard let archive, let path = output.har else { return }
        do {
            try archive.write(to: URL(fileURLWithPath: path))
        } catch {
            throw CourierError(.invalidRequest, "cannot write the HAR file \(path): \(error.message)", source: "--har")
        }
    }

    /// Opens `--session`'s session for the request's URL, and adopts its credentials when the
    /// command line gives none; `nil` without `--session`.
    ///
    /// - Throws: ``SessionFileError`` for a session file that cannot be read or holds an unknown
    ///   kind of credentials.
    mutating func openSession(in directory: ConfigDirectory = ConfigDirectory()) throws -> Session? {
        guard let chosen = sessions.chosen else { return nil }
        let line = try RequestLine.parse(request)
        let expanded = URLShorthand.expand(line.url)
        guard let url = URL(string: expanded), let file = sessions.file(for: url, in: directory) else {
            throw CourierError(
                .invalidRequest, "\(expanded) is not a URL a session can be kept for", source: "--session")
        }
        let session = try Session(
            file: file, isReadOnly: chosen.isReadOnly, host: url.host(percentEncoded: false) ?? "localhost")
        if pipeline.auth == nil, pipeline.bearer == nil, let stored = session.auth, let raw = stored.rawAuth {
            guard let type = stored.type.flatMap(PipelineOptions.AuthType.init(rawValue:)) else {
                throw SessionFileError(
                    path: file.path,
                    problem: "has auth of type \"\(stored.type ?? "")\"; courier knows basic, bearer and digest")
            }
            pipeline.auth = raw
            pipeline.authType = type
        }
        return session
    }

    /// The request the arguments describe, built through Courier's builder.
    ///
    /// - Parameter withCredentials: whether `--auth` or `--bearer` go on the request itself; a sent
    ///   request gets them from the credentials stage instead, so `--explain` shows them added.
    public func makeRequest(standardInput: Data?, withCredentials: Bool = true) throws -> Request {
        var factory = RequestFactory(line: try RequestLine.parse(request))
        factory.style = body.style
        factory.forcesJSON = body.json
        factory.standardInput = standardInput
        factory.rawBody = body.raw
        factory.boundary = body.boundary
        factory.keepsDotSegments = network.pathAsIs
        factory.credentials = withCredentials ? pipeline.credentials : nil
        factory.timeout = pipeline.deadline
        return try factory.makeRequest()
    }

    /// `--offline`: prints the request as `--print` selects (head and body by default) and sends nothing.
    private func printOffline(_ request: Request, console: Console) async throws -> ExitStatus {
        let printer = ExchangePrinter(
            pretty: output.pretty ?? .default(isTerminal: console.isOutTerminal), isTerminal: console.isOutTerminal)
        let requestPrinter = RequestPrinter(
            console: console, printer: printer, selection: try output.selection(isTerminal: console.isOutTerminal))
        if try await requestPrinter.print(request) { console.out("\n") }
        return .success
    }

    private func send(_ request: Request, with client: Client, console: Console) async throws -> ExitStatus {
        let pretty = output.pretty ?? .default(isTerminal: console.isOutTerminal)
        if output.download {
            let printer = ExchangePrinter(
                pretty: output.pretty ?? .default(isTerminal: console.isErrTerminal),
                isTerminal: console.isErrTerminal)
            var downloader = Downloader(client: client, console: console, printer: printer, outputPath: output.output)
            downloader.resumes = output.continue
            return try await downloader.run(request)
        }
        var runner = ExchangeRunner(
            client: client, console: console,
            printer: ExchangePrinter(pretty: pretty, isTerminal: console.isOutTerminal),
            selection: try output.selection(isTerminal: console.isOutTerminal))
        runner.checksStatus = pipeline.checkStatus
        runner.historySelection = try output.historySelection(isTerminal: console.isOutTerminal)
        runner.streamsLines = output.stream
        runner.printsTimings = output.timings
        return try await runner.run(request)
    }

    /// Prints `explanation` after the exchange: on standard error, so it never mixes with the
    /// response, unless `--print ''` leaves standard output empty for it (`| jq` with `--explain-json`).
    private func printExplanation(_ explanation: Explanation?, console: Console) {
        guard let explanation else { return }
        let text =
            pipeline.explainJson
            ? (try? explanation.json()).map { String(decoding: $0, as: UTF8.self) } ?? ""
            : explanation.text
        if output.print == "", !output.download { console.out(text + "\n") } else { console.err(text + "\n") }
    }

    /// `console`, or with `--output` (and no `--download`) one whose standard output is that file.
    private func outputConsole(_ console: Console) throws -> Console {
        guard let path = output.output, !output.download else { return console }
        guard FileManager.default.createFile(atPath: path, contents: nil), let file = FileHandle(forWritingAtPath: path)
        else {
            throw CourierError(.invalidRequest, "cannot create \(path)", source: "--output")
        }
        var redirected = console
        redirected.isOutTerminal = false
        redirected.writeOut = { file.write($0) }
        return redirected
    }
}
