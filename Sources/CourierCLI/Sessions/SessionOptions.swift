import ArgumentParser
import Foundation

/// `--session` and `--session-read-only`, as HTTPie's: a name (kept per host under the
/// ``ConfigDirectory``) or a path (anything with a `/`) of a session file.
struct SessionOptions: ParsableArguments, Sendable {
    @Option(
        help: ArgumentHelp(
            "Send the headers, cookies and credentials of this session, and keep what this exchange adds (a name, kept per host, or a path).",
            valueName: "name|path"))
    var session: String?

    @Option(help: ArgumentHelp("As --session, but leave the session file as it is.", valueName: "name|path"))
    var sessionReadOnly: String?

    init() {}

    func validate() throws {
        if session != nil, sessionReadOnly != nil {
            throw ValidationError("--session and --session-read-only cannot be used together")
        }
        if let name = chosen?.name, !name.contains("/") {
            let allowed = CharacterSet(
                charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-")
            guard !name.isEmpty, name.unicodeScalars.allSatisfy(allowed.contains) else {
                throw ValidationError(
                    "session name \"\(name)\": use letters, digits, _ . and -, or give a path with a /")
            }
        }
    }

    /// The session asked for, and whether it is read-only; `nil` without either option.
    var chosen: (name: String, isReadOnly: Bool)? {
        if let session { return (session, false) }
        if let sessionReadOnly { return (sessionReadOnly, true) }
        return nil
    }

    /// The file of the chosen session for a request to `url`: the path as given (`~` expanded), or
    /// the name's file for the URL's `host:port` in `directory`.
    func file(for url: URL, in directory: ConfigDirectory) -> URL? {
        guard let (name, _) = chosen else { return nil }
        if name.contains("/") { return URL(fileURLWithPath: (name as NSString).expandingTildeInPath) }
        let host = url.host(percentEncoded: false) ?? "localhost"
        return directory.sessionFile(named: name, authority: url.port.map { "\(host):\($0)" } ?? host)
    }
}
