import HTTPTypes

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The parts of a curl command line for one request; see `Request.curlCommand`.
package struct CurlCommandLine {
    /// Where curl reads the body from.
    enum BodySource: Equatable {
        /// No body, or one known to be empty.
        case none
        /// Text passed as an argument.
        case argument(String)
        /// One file, read by curl.
        case file(String)
        /// Bytes and files written to curl's standard input by `printf` and `cat`.
        case pipe([PipePart])
        /// A stream the user pipes in.
        case standardInput
    }

    /// One producer in a `printf … | curl` pipeline.
    enum PipePart: Equatable {
        case bytes(Data)
        case file(String)

        var isFile: Bool {
            if case .file = self { true } else { false }
        }
    }

    /// The longest text body passed as an argument; Linux refuses a single argument over 128 KiB.
    static let maximumArgumentLength = 64 * 1024

    package let text: String

    /// `minimal` leaves out the header lines curl sends identically by itself: a `Content-Length`
    /// equal to the length of the data curl is given, `Accept: */*`, and
    /// `application/x-www-form-urlencoded` as the `Content-Type` of a body (what `--data-binary` sends).
    package init(_ request: Request, minimal: Bool = false) {
        var request = request
        if let body = request.body, case .deferred = body.storage,
            let resolved = try? body.resolved(with: BodyEncodingContext(options: request.options))
        {
            request.body = resolved
        }
        let fields = request.wireHeaderFields
        let body = Self.bodySource(of: request.body)
        let hasData = body != .none

        var options: [String] = []
        let url = request.url.absoluteString
        if url.contains(where: { "[]{}".contains($0) }) { options.append("--globoff") }
        if request.path.split(separator: "/").contains(where: { $0 == "." || $0 == ".." }) {
            options.append("--path-as-is")
        }
        switch (request.method, hasData) {
        case (.head, false): options.append("--head")
        case (.get, false), (.post, true): break
        default: options.append("--request " + Self.word(request.method.rawValue))
        }
        // The Content-Length curl sends by itself: the length of the data it is given (files
        // included, as the request was built), and none without data or for a chunked body.
        let curlLength =
            hasData && body != .standardInput && fields[.transferEncoding] == nil
            ? request.body?.contentLength : nil
        for field in fields {
            if minimal, Self.curlSendsByItself(field, contentLength: curlLength, hasData: hasData) { continue }
            let line = field.value.isEmpty ? "\(field.name.rawName);" : "\(field.name.rawName): \(field.value)"
            options.append("-H " + ShellQuoting.quoted(line))
        }
        if body == .standardInput, fields[.contentLength] == nil, fields[.transferEncoding] == nil {
            options.append("-H 'Transfer-Encoding: chunked'")
        }
        var suppressed: [HTTPField.Name] = [.accept, .userAgent]
        if hasData { suppressed.append(.contentType) }
        if Self.curlMayAskToContinue(before: body) { suppressed.append(.expect) }
        for name in suppressed where fields[name] == nil {
            options.append("-H " + ShellQuoting.quoted(name.rawName + ":"))
        }

        var producer = ""
        switch body {
        case .none:
            break
        case .argument(let text):
            options.append((text.hasPrefix("@") ? "--data-raw " : "--data-binary ") + ShellQuoting.quoted(text))
        case .file(let path):
            options.append("--data-binary @" + ShellQuoting.quoted(path))
        case .pipe(let parts):
            let commands = parts.map { part in
                switch part {
                case .bytes(let bytes): "printf " + ShellQuoting.printfFormat(bytes)
                case .file(let path): "cat " + ShellQuoting.quoted(path)
                }
            }
            producer = (commands.count == 1 ? commands[0] : "{ " + commands.joined(separator: "; ") + "; }") + " | "
            options.append("--data-binary @-")
        case .standardInput:
            options.append("--data-binary @-")
        }
        text = ([producer + "curl " + ShellQuoting.quoted(url)] + options).joined(separator: " \\\n  ")
    }

    /// Whether curl, given the body as this command gives it, sends `field` exactly so without being told.
    ///
    /// `contentLength` is the `Content-Length` curl sends itself, `nil` when it sends none: with no
    /// data (an empty `POST` keeps its `Content-Length: 0`), or for a chunked body.
    static func curlSendsByItself(_ field: HTTPField, contentLength: Int64?, hasData: Bool) -> Bool {
        switch field.name {
        case .contentLength: contentLength.map(String.init) == field.value
        case .accept: field.value == "*/*"
        case .contentType: hasData && field.value == "application/x-www-form-urlencoded"
        default: false
        }
    }

    /// The largest body curl sends without asking `Expect: 100-continue` first, in any version:
    /// curl 7.69.0 and later ask only above 1 MiB, earlier versions above 1 KiB.
    static let largestBodyWithoutExpect = 1024

    /// Whether curl may send `Expect: 100-continue` before this body, so the command must switch it
    /// off: bytes over `largestBodyWithoutExpect`, and any body whose size the command cannot know
    /// (a file, read when the command runs, or a stream piped in).
    ///
    /// The lower, older threshold is used because the command is pasted into other machines' shells,
    /// and older curls are still shipped; a body no curl asks about gets no `Expect:` line.
    static func curlMayAskToContinue(before body: BodySource) -> Bool {
        switch body {
        case .none: false
        case .argument(let text): text.utf8.count > largestBodyWithoutExpect
        case .pipe(let parts):
            parts.contains { $0.isFile }
                || parts.reduce(0) { total, part in
                    if case .bytes(let bytes) = part { total + bytes.count } else { total }
                } > largestBodyWithoutExpect
        case .file, .standardInput: true
        }
    }

    /// How the body reaches curl; adjacent byte segments are merged and empty ones dropped.
    static func bodySource(of body: RequestBody?) -> BodySource {
        guard let body, !body.isEmpty else { return .none }
        guard let segments = body.segments else { return .standardInput }
        var parts: [PipePart] = []
        for segment in segments {
            switch segment {
            case .bytes(let bytes) where bytes.isEmpty:
                continue
            case .file(_, let length) where length == 0:
                continue
            case .bytes(let bytes):
                if case .bytes(let previous)? = parts.last {
                    parts[parts.count - 1] = .bytes(previous + bytes)
                } else {
                    parts.append(.bytes(bytes))
                }
            case .file(let url, _):
                parts.append(.file(url.path))
            }
        }
        guard parts.count == 1 else { return parts.isEmpty ? .none : .pipe(parts) }
        switch parts[0] {
        case .file(let path): return .file(path)
        case .bytes(let bytes): return argumentText(bytes).map(BodySource.argument) ?? .pipe(parts)
        }
    }

    /// `bytes` as text that can be an argument: valid UTF-8, short enough, and free of control
    /// characters other than line feed (a pasted CR or tab would be changed by the terminal).
    static func argumentText(_ bytes: Data) -> String? {
        guard bytes.count <= maximumArgumentLength, let text = String(validating: bytes, as: UTF8.self) else {
            return nil
        }
        let isPlain = text.unicodeScalars.allSatisfy { scalar in
            scalar == "\n" || (scalar.value >= 0x20 && scalar.value != 0x7F && !(0x80..<0xA0).contains(scalar.value))
        }
        return isPlain ? text : nil
    }

    /// A method token bare when it has only letters, digits, `-` and `_`; quoted otherwise.
    static func word(_ token: String) -> String {
        token.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
            ? token : ShellQuoting.quoted(token)
    }
}
