import ArgumentParser
import Courier

/// The options about the body: how data items are encoded (JSON, `--form`, `--multipart`), what
/// else can be the body (piped input, `--raw`), and how it is sent (`--chunked`, `--compress`).
struct BodyOptions: ParsableArguments, Sendable {
    @Flag(name: [.short, .long], help: "Send data items as a JSON object (the default) and ask for JSON.")
    var json = false

    @Flag(
        name: [.short, .long],
        help: "Send data items as a form: URL-encoded, or multipart/form-data when a file is attached.")
    var form = false

    @Flag(name: [.customShort("I"), .long], help: "Do not read a body from standard input, even when it is piped.")
    var ignoreStdin = false

    @Option(
        help: ArgumentHelp(
            "Send this text as the body, verbatim, instead of data items or piped input.", valueName: "text"))
    var raw: String?

    @Flag(help: "Send data items as multipart/form-data, even without a file field.")
    var multipart = false

    @Option(
        help: ArgumentHelp(
            "The multipart boundary, instead of a random one (1-70 characters of RFC 2046).", valueName: "text"))
    var boundary: String?

    @Flag(help: "Send the body with Transfer-Encoding: chunked instead of Content-Length.")
    var chunked = false

    @Flag(
        name: [.customShort("x"), .long],
        help: "Deflate the body (Content-Encoding: deflate) when that makes it smaller; -xx always.")
    var compress: Int

    init() {}

    func validate() throws {
        if json, form { throw ValidationError("--json and --form cannot be used together") }
        if json, multipart { throw ValidationError("--json and --multipart cannot be used together") }
        if let boundary { try Self.check(boundary: boundary) }
    }

    /// Refuses a boundary Courier's multipart encoder would refuse (RFC 2046: 1–70 allowed
    /// characters, no trailing space), before anything is built, naming the option.
    private static func check(boundary: String) throws {
        do {
            _ = try RequestBody.multipart(boundary: boundary) { MultipartPart.field(name: "check", value: "") }.chunks()
        } catch let error as CourierError {
            throw ValidationError("--boundary \"\(boundary)\": \(error.message)")
        }
    }

    /// How data items are encoded: `--multipart`, `--form`, or JSON.
    var style: RequestFactory.BodyStyle { multipart ? .multipart : form ? .form : .json }

    /// What `--compress` and `--chunked` do to the built body.
    var transfer: BodyTransfer { BodyTransfer(compress: compress, chunked: chunked) }
}
