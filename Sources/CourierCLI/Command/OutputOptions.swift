public import ArgumentParser

extension PrettyMode: ExpressibleByArgument {}

/// The options that choose what is printed and where: `--print`, `--pretty`, `--download`, `--curl`,
/// `--offline` and `--quiet`.
struct OutputOptions: ParsableArguments, Sendable {
    @Option(
        name: [.short, .long],
        help: ArgumentHelp(
            "What to print: H request headers, B request body, h response headers, b response body, m metadata (default hb on a terminal, b when piped).",
            valueName: "HBhbm"))
    var print: String?

    @Flag(name: [.short, .long], help: "Print only the response's metadata (the elapsed time), as --print m.")
    var meta = false

    @Flag(
        help:
            "After the exchange, print where its time went, phase by phase (DNS, connect, TLS, send, wait, receive), and its connection, on standard error."
    )
    var timings = false

    @Option(
        help: ArgumentHelp(
            "all: indent and colour JSON; colors; format; none (default all on a terminal, none when piped).",
            valueName: "all|colors|format|none"))
    var pretty: PrettyMode?

    @Flag(
        name: [.short, .long],
        help:
            "Save the response body to a file (named after the response, or --output), with a progress bar on a terminal."
    )
    var download = false

    @Option(
        name: [.short, .long],
        help: ArgumentHelp(
            "With --download, the file to save to; without, where to write the output instead of standard output.",
            valueName: "file"))
    var output: String?

    @Flag(
        name: [.customShort("c"), .long],
        help:
            "With --download and --output, resume a download that broke off (Range and If-Range), as HTTPie's --continue."
    )
    var `continue` = false

    @Flag(
        name: [.customShort("S"), .long],
        help:
            "Print the response body line by line as it arrives, each line formatted on its own (SSE, NDJSON), as tail -f does; a line may be at most 16 MiB."
    )
    var stream = false

    @Flag(help: "With --follow, print each redirect exchange before the final one too.")
    var all = false

    @Option(
        name: [.customShort("P"), .long],
        help: ArgumentHelp(
            "As --print, for the redirect exchanges --all prints (default: the same as --print).", valueName: "HBhb"))
    var historyPrint: String?

    @Option(
        help: ArgumentHelp(
            "Also record the exchange in this HAR 1.2 file (browsers' developer tools open it), secrets redacted.",
            valueName: "file"))
    var har: String?

    @Flag(help: "Print the equivalent curl command instead of sending the request.")
    var curl = false

    @Flag(help: "Build the request and print it (--print, default HB) without sending it.")
    var offline = false

    @Flag(
        name: [.short, .long],
        help: "Print nothing but errors and warnings (-qq: errors only); --output still writes its file.")
    var quiet: Int

    init() {}

    func validate() throws {
        if let print { _ = try PrintSelection(letters: print) }
        if meta, print != nil { throw ValidationError("--meta is --print m; give one of them") }
        if let historyPrint {
            _ = try PrintSelection(letters: historyPrint)
            if !all {
                throw ValidationError("--history-print chooses what --all prints of each redirect; give --all with it")
            }
        }
        if curl, download {
            throw ValidationError("--curl prints a command and sends nothing, so it cannot be used with --download")
        }
        if offline, download { throw ValidationError("--offline sends nothing, so it cannot be used with --download") }
        if `continue`, !download || output == nil {
            throw ValidationError("--continue resumes the file --output names, so it needs --download and --output")
        }
        if har != nil, offline || curl {
            throw ValidationError("--har records what is sent; --offline and --curl send nothing")
        }
        if stream, download {
            throw ValidationError("--stream prints the body as it arrives and --download saves it; choose one")
        }
        if offline, curl { throw ValidationError("--offline and --curl both print instead of sending; choose one") }
    }

    /// The parts to print, `--print` or the default for the output; `--offline`'s default is the
    /// request it built, head and body, as HTTPie's is.
    func selection(isTerminal: Bool) throws -> PrintSelection {
        if meta { return .metadata }
        return try print.map { try PrintSelection(letters: $0) }
            ?? (offline ? [.requestHead, .requestBody] : .default(isTerminal: isTerminal))
    }

    /// With `--all`, the parts printed of each redirect exchange: `--history-print`, or the same as
    /// the final exchange's; `nil` without `--all`.
    func historySelection(isTerminal: Bool) throws -> PrintSelection? {
        guard all else { return nil }
        return try historyPrint.map { try PrintSelection(letters: $0) } ?? selection(isTerminal: isTerminal)
    }
}
