public import ArgumentParser

extension PrettyMode: ExpressibleByArgument {}

/// The options that choose what is printed and where: `--print`, `--pretty`, `--download`, `--curl`.
struct OutputOptions: ParsableArguments, Sendable {
    @Option(name: [.short, .long],
            help: ArgumentHelp("What to print: H request headers, B request body, h response headers, b response body (default hb on a terminal, b when piped).",
                               valueName: "HBhb"))
    var print: String?

    @Option(help: ArgumentHelp("all: indent and colour JSON; colors; format; none (default all on a terminal, none when piped).",
                               valueName: "all|colors|format|none"))
    var pretty: PrettyMode?

    @Flag(name: [.short, .long], help: "Save the response body to a file (named after the response, or --output), with a progress bar on a terminal.")
    var download = false

    @Option(name: [.short, .long], help: ArgumentHelp("With --download, the file to save to; without, where to write the output instead of standard output.", valueName: "file"))
    var output: String?

    @Flag(help: "Print the equivalent curl command instead of sending the request.")
    var curl = false

    init() {}

    func validate() throws {
        if let print { _ = try PrintSelection(letters: print) }
        if curl, download { throw ValidationError("--curl prints a command and sends nothing, so it cannot be used with --download") }
    }

    /// The parts to print, `--print` or the default for the output.
    func selection(isTerminal: Bool) throws -> PrintSelection {
        try print.map { try PrintSelection(letters: $0) } ?? .default(isTerminal: isTerminal)
    }
}

/// The options about the body: how data items are encoded, and whether to read standard input.
struct BodyOptions: ParsableArguments, Sendable {
    @Flag(name: [.short, .long], help: "Send data items as a JSON object (the default) and ask for JSON.")
    var json = false

    @Flag(name: [.short, .long], help: "Send data items as a form: URL-encoded, or multipart/form-data when a file is attached.")
    var form = false

    @Flag(name: [.customShort("I"), .long], help: "Do not read a body from standard input, even when it is piped.")
    var ignoreStdin = false

    init() {}

    func validate() throws {
        if json, form { throw ValidationError("--json and --form cannot be used together") }
    }
}
