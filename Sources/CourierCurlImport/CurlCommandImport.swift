public import Courier
import HTTPTypes

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A curl command line read into a ``Request``: the options people paste from API documentation
/// and from browsers' "Copy as cURL" (Chromium's and Firefox's bash formats).
///
/// The request is the one curl would send: its method, URL (dot segments removed unless
/// `--path-as-is`), header lines in order, and body bytes, with curl's `Accept: */*` and, for
/// `-d`, its form `Content-Type` unless the command switches them off (`-H 'Accept:'`). curl's
/// `User-Agent` is left out, so the client's own applies. It reads `request.curlCommand`'s
/// output back into the same request, `printf … | curl --data-binary @-` pipelines included.
///
/// Options that change only what curl prints or how it connects (`-s`, `-v`, `-L`,
/// `--compressed`, `-k`, `--http2`…) have no place in a request; they are accepted and listed
/// in ``notes``, each saying where Courier sets the same thing. Any other option is refused with
/// ``CurlImportError/unsupportedOption(_:reason:)`` naming it: nothing in the command is
/// silently dropped.
public struct CurlCommandImport: Sendable {
    /// The request the command sends.
    public let request: Request
    /// One line per accepted option that the request does not carry, with where Courier sets it.
    public let notes: [String]

    /// Reads `command`, a curl command as a POSIX shell would run it.
    ///
    /// Files named with `@file` (`-d`, `--data-binary`, `--data-urlencode`, `-H`) or `<file` (`-F`)
    /// are read now; `--data-binary @file` alone stays a file streamed when the request is sent,
    /// as a body built with ``RequestBody/file(_:type:)`` would.
    public init(_ command: String) throws(CurlImportError) {
        var reader = try CurlCommandReader(tokens: ShellWords(command).tokens)
        try reader.read()
        request = try reader.makeRequest()
        notes = reader.notes
    }
}

extension Request {
    /// The request a curl command line sends; see ``CurlCommandImport`` for what is read.
    ///
    /// ```swift
    /// let request = try Request(curlCommand: """
    ///     curl 'https://api.example.com/v1/login' -H 'Content-Type: application/json' --data-raw '{"user":"ada"}'
    ///     """)
    /// ```
    ///
    /// - Throws: ``CurlImportError`` naming the option, quote or file it could not take.
    public init(curlCommand: String) throws(CurlImportError) {
        self = try CurlCommandImport(curlCommand).request
    }
}

/// The state of reading one curl command: its options in order, then the request they make.
struct CurlCommandReader {
    /// A piece of `-d`-style data, kept apart until the command is read (`-G` moves them to the query).
    struct DataPiece {
        var bytes: [BodySegment]
        /// `--json`: concatenated to the previous piece without `&`.
        var joinsWithoutSeparator = false
    }

    private var words: [[UInt8]]
    private var position = 1
    private var standardInput: [BodySegment]?
    private var standardInputUsed = false

    private(set) var notes: [String] = []
    private var method: String?
    private var urls: [String] = []
    private var headers: [(name: String, value: String)] = []
    private var suppressed: Set<HTTPField.Name> = []
    private var data: [DataPiece] = []
    private var formParts: [MultipartPart] = []
    private var uploadFile: String?
    private var isHead = false
    private var dataInQuery = false
    private var globOff = false
    private var pathAsIs = false
    private var isJSON = false
    private var timeout: Duration?

    init(tokens: [ShellWords.Token]) throws(CurlImportError) {
        let commands = tokens.split(separator: .operator("|"), omittingEmptySubsequences: false).map(Array.init)
        guard commands.count <= 2 else { throw .unsupportedShellSyntax("a pipeline of more than two commands") }
        if commands.count == 2 { standardInput = try Self.producedBytes(commands[0]) }
        var words: [[UInt8]] = []
        for token in commands.last ?? [] {
            guard case .word(let word) = token else { throw .unsupportedShellSyntax("more than one command") }
            words.append(word)
        }
        guard let program = words.first.map({ String(decoding: $0, as: UTF8.self) }),
            program.split(separator: "/").last == "curl"
        else { throw .notACurlCommand(words.first.map { String(decoding: $0, as: UTF8.self) } ?? "") }
        self.words = words
    }

    /// What a `printf FORMAT`, `cat FILE` or `{ …; …; }` writes into the pipe.
    static func producedBytes(_ tokens: [ShellWords.Token]) throws(CurlImportError) -> [BodySegment] {
        var tokens = tokens[...]
        if tokens.first == .operator("{") {
            guard tokens.last == .operator("}") else { throw .unsupportedShellSyntax("an unclosed { group") }
            tokens = tokens.dropFirst().dropLast()
        }
        var segments: [BodySegment] = []
        for command in tokens.split(separator: .operator(";")) {
            let words = command.compactMap { token -> String? in
                if case .word(let word) = token { return String(decoding: word, as: UTF8.self) }
                return nil
            }
            guard words.count == command.count else { throw .unsupportedShellSyntax("a nested group before the pipe") }
            switch (words.first, words.count) {
            case ("printf", 2):
                guard case .word(let format)? = command.last else { continue }
                segments.append(.bytes(try PrintfFormat.bytes(of: format)))
            case ("cat", 2):
                segments.append(try Self.fileSegment(words[1]))
            default:
                throw .unsupportedShellSyntax(
                    "`\(words.joined(separator: " "))` before the pipe (only printf FORMAT and cat FILE are read)")
            }
        }
        return segments
    }

    static func fileSegment(_ path: String) throws(CurlImportError) -> BodySegment {
        let url = URL(fileURLWithPath: path)
        guard let length = try? BodySegment.fileLength(of: url, source: "Request(curlCommand:)") else {
            throw .unreadableFile(path)
        }
        return .file(url, length: length)
    }

    static func contents(of path: String) throws(CurlImportError) -> Data {
        guard let data = FileManager.default.contents(atPath: path) else { throw .unreadableFile(path) }
        return data
    }

    // MARK: Options

    private mutating func value(for option: String) throws(CurlImportError) -> [UInt8] {
        guard position < words.count else { throw .missingValue(option: option) }
        defer { position += 1 }
        return words[position]
    }

    private mutating func text(for option: String) throws(CurlImportError) -> String {
        String(decoding: try value(for: option), as: UTF8.self)
    }

    /// The short options that take a value, and the long name each stands for.
    static let shortWithValue: [Character: String] = [
        "X": "--request", "H": "--header", "d": "--data", "F": "--form", "u": "--user", "b": "--cookie",
        "A": "--user-agent", "e": "--referer", "m": "--max-time", "o": "--output", "T": "--upload-file",
        "x": "--proxy", "E": "--cert", "w": "--write-out", "K": "--config", "c": "--cookie-jar", "r": "--range",
        "U": "--proxy-user", "y": "--speed-time", "Y": "--speed-limit", "z": "--time-cond",
    ]
    /// The short options that take none.
    static let shortFlags: [Character: String] = [
        "s": "--silent", "S": "--show-error", "v": "--verbose", "i": "--include", "L": "--location",
        "k": "--insecure", "G": "--get", "I": "--head", "g": "--globoff", "f": "--fail", "#": "--progress-bar",
        "N": "--no-buffer", "O": "--remote-name", "J": "--remote-header-name", "4": "--ipv4", "6": "--ipv6",
        "0": "--http1.0", "n": "--netrc", "q": "--disable", "j": "--junk-session-cookies",
    ]

    mutating func read() throws(CurlImportError) {
        while position < words.count {
            let word = String(decoding: words[position], as: UTF8.self)
            position += 1
            if word.hasPrefix("--") {
                try apply(word)
            } else if word.hasPrefix("-"), word.count > 1 {
                var letters = Substring(word.dropFirst())
                while let letter = letters.first {
                    letters = letters.dropFirst()
                    if let long = Self.shortWithValue[letter] {
                        if !letters.isEmpty {
                            words.insert(Array(letters.utf8), at: position)
                        }
                        try apply(long, as: "-\(letter)")
                        break
                    } else if let long = Self.shortFlags[letter] {
                        try apply(long, as: "-\(letter)")
                    } else {
                        throw .unsupportedOption("-\(letter)", reason: "Courier does not know this curl option")
                    }
                }
            } else {
                urls.append(word)
            }
        }
    }

    private mutating func note(_ option: String, _ text: String) {
        notes.append("\(option): \(text)")
    }

    private mutating func apply(_ option: String, as written: String? = nil) throws(CurlImportError) {
        let name = written ?? option
        switch option {
        case "--url": urls.append(try text(for: name))
        case "--request": method = try text(for: name)
        case "--head": isHead = true
        case "--get": dataInQuery = true
        case "--header": try header(try value(for: name), option: name)
        case "--user-agent": headers.append(("User-Agent", try text(for: name)))
        case "--referer":
            let referer = try text(for: name)
            if referer != ";auto" {
                headers.append(("Referer", referer.hasSuffix(";auto") ? String(referer.dropLast(5)) : referer))
            }
        case "--cookie":
            let cookie = try text(for: name)
            guard cookie.contains("=") else {
                throw .unsupportedOption(
                    "\(name) FILE",
                    reason:
                        "reading a cookie file; give the cookies as name=value, or set Client.Configuration.cookieJar")
            }
            headers.append(("Cookie", cookie))
        case "--user":
            let credentials = try text(for: name)
            guard credentials.contains(":") else {
                throw .unsupportedOption(
                    "\(name) without a password", reason: "curl would ask for it; give user:password")
            }
            headers.append(("Authorization", "Basic " + Data(credentials.utf8).base64EncodedString()))
        case "--basic": break
        case "--oauth2-bearer": headers.append(("Authorization", "Bearer " + (try text(for: name))))
        case "--data", "--data-ascii":
            data.append(DataPiece(bytes: try dataBytes(try value(for: name), readsFiles: true, stripsNewlines: true)))
        case "--data-binary":
            data.append(DataPiece(bytes: try dataBytes(try value(for: name), readsFiles: true, stripsNewlines: false)))
        case "--data-raw": data.append(DataPiece(bytes: [.bytes(Data(try value(for: name)))]))
        case "--data-urlencode": data.append(DataPiece(bytes: [.bytes(try urlEncodedData(try value(for: name)))]))
        case "--json":
            isJSON = true
            data.append(
                DataPiece(
                    bytes: try dataBytes(try value(for: name), readsFiles: true, stripsNewlines: false),
                    joinsWithoutSeparator: true))
        case "--form": formParts.append(try formPart(try text(for: name), literal: false))
        case "--form-string": formParts.append(try formPart(try text(for: name), literal: true))
        case "--upload-file": uploadFile = try text(for: name)
        case "--max-time":
            let text = try text(for: name)
            guard let seconds = Double(text), seconds >= 0 else {
                throw .missingValue(option: "\(name) (a number of seconds, not \(text))")
            }
            timeout = .milliseconds(Int64(seconds * 1000))
        case "--globoff": globOff = true
        case "--path-as-is": pathAsIs = true
        case "--compressed": note(name, "Courier's transports ask for compressed bodies and decode them by default")
        case "--location": note(name, "Courier follows redirects by default (Client.Configuration.redirects)")
        case "--max-redirs":
            note("\(name) \(try text(for: name))", "set the redirect limit in Client.Configuration.redirects")
        case "--insecure":
            note(name, "TLS verification is a transport setting (TLSSettings); the request was imported without it")
        case "--http1.0", "--http1.1", "--http2", "--http2-prior-knowledge", "--http3":
            note(name, "the HTTP version is a transport setting (CurlTransport.Configuration.httpVersion)")
        case "--connect-timeout": note("\(name) \(try text(for: name))", "the connect timeout is a transport setting")
        case "--silent", "--show-error", "--verbose", "--include", "--fail", "--fail-with-body", "--progress-bar",
            "--no-buffer", "--no-progress-meter", "--ipv4", "--ipv6", "--disable", "--trace-time":
            note(name, "changes only what curl prints or how it connects")
        case "--output", "--write-out", "--trace", "--trace-ascii", "--stderr":
            note("\(name) \(try text(for: name))", "changes only what curl prints")
        case "--remote-name", "--remote-header-name": note(name, "changes only where curl saves the body")
        case "--proxy", "--proxy-user", "--cert", "--key", "--cacert", "--capath":
            throw .unsupportedOption(
                name,
                reason:
                    "a client setting in Courier (ProxySettings or TLSSettings on the transport), not part of a request"
            )
        default:
            throw .unsupportedOption(name, reason: "Courier does not import it")
        }
    }

    private mutating func header(_ line: [UInt8], option: String) throws(CurlImportError) {
        var text = String(decoding: line, as: UTF8.self)
        if text.hasPrefix("@") {
            let path = String(text.dropFirst())
            for fileLine in String(decoding: try Self.contents(of: path), as: UTF8.self).split(
                whereSeparator: \.isNewline)
            where !fileLine.isEmpty {
                try header(Array(fileLine.utf8), option: option)
            }
            return
        }
        if let colon = text.firstIndex(of: ":") {
            let name = String(text[..<colon])
            let value = text[text.index(after: colon)...].trimmingWhitespace()
            guard let fieldName = HTTPField.Name(name) else { throw .invalidHeader(text) }
            if value.isEmpty {
                // curl: `Name:` removes a header curl would add itself; it sends nothing.
                suppressed.insert(fieldName)
                return
            }
            headers.append((name, value))
        } else if text.hasSuffix(";") {
            text.removeLast()
            guard HTTPField.Name(text) != nil else { throw .invalidHeader(text + ";") }
            headers.append((text, ""))
        } else {
            throw .invalidHeader(text)
        }
    }

    /// `-d`'s value: text, or `@file` (`@-`: the pipe), with CR and LF removed as `-d` does.
    private mutating func dataBytes(
        _ value: [UInt8], readsFiles: Bool, stripsNewlines: Bool
    ) throws(CurlImportError) -> [BodySegment] {
        var segments: [BodySegment]
        if readsFiles, value.first == UInt8(ascii: "@") {
            let path = String(decoding: value.dropFirst(), as: UTF8.self)
            if path == "-" {
                guard let standardInput, !standardInputUsed else {
                    throw .unsupportedOption(
                        "@-",
                        reason: "the body comes from standard input; pipe it in with printf or cat in the same command")
                }
                standardInputUsed = true
                segments = standardInput
            } else {
                segments = [try Self.fileSegment(path)]
            }
        } else {
            segments = [.bytes(Data(value))]
        }
        guard stripsNewlines else { return segments }
        var bytes = Data()
        for segment in segments {
            switch segment {
            case .bytes(let data): bytes += data
            case .file(let url, _): bytes += try Self.contents(of: url.path)
            }
        }
        bytes.removeAll { $0 == 0x0A || $0 == 0x0D }
        return [.bytes(bytes)]
    }

    /// `--data-urlencode`: `content`, `=content`, `name=content`, `@file` or `name@file`, the
    /// content percent-encoded as curl does (everything but letters, digits and `-._~`).
    private func urlEncodedData(_ value: [UInt8]) throws(CurlImportError) -> Data {
        let text = String(decoding: value, as: UTF8.self)
        var name: Substring?
        var content: Data
        if let equals = text.firstIndex(of: "="), !text[..<equals].contains("@") {
            name = equals == text.startIndex ? nil : text[..<equals]
            content = Data(text[text.index(after: equals)...].utf8)
        } else if let at = text.firstIndex(of: "@") {
            name = at == text.startIndex ? nil : text[..<at]
            content = try Self.contents(of: String(text[text.index(after: at)...]))
        } else {
            content = Data(text.utf8)
        }
        let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)
        var encoded = name.map { Data($0.utf8) + Data("=".utf8) } ?? Data()
        for byte in content {
            if unreserved.contains(byte) {
                encoded.append(byte)
            } else {
                encoded += Data(("%" + TextFormat.hex(byte, width: 2, uppercase: true)).utf8)
            }
        }
        return encoded
    }

    /// `-F name=value`, `name=@file` (uploaded, with `;type=` and `;filename=`), `name=<file`
    /// (the file's text as the value); `--form-string` takes the value literally.
    private func formPart(_ text: String, literal: Bool) throws(CurlImportError) -> MultipartPart {
        guard let equals = text.firstIndex(of: "=") else { throw .missingValue(option: "-F \(text) (name=value)") }
        let name = String(text[..<equals])
        var value = String(text[text.index(after: equals)...])
        if literal { return .field(name: name, value: value) }
        var type: MIMEType?
        var filename: String?
        if value.hasPrefix("@") || value.hasPrefix("<") {
            var attributes = value.split(separator: ";", omittingEmptySubsequences: false).map(String.init)
            value = attributes.removeFirst()
            for attribute in attributes {
                if attribute.hasPrefix("type=") {
                    type = MIMEType(String(attribute.dropFirst(5)))
                } else if attribute.hasPrefix("filename=") {
                    filename = String(attribute.dropFirst(9))
                } else {
                    throw .unsupportedOption("-F …;\(attribute)", reason: "only ;type= and ;filename= are imported")
                }
            }
        } else if let semicolon = value.firstIndex(of: ";"), value[value.index(after: semicolon)...].hasPrefix("type=")
        {
            type = MIMEType(String(value[value.index(semicolon, offsetBy: 6)...]))
            value = String(value[..<semicolon])
        }
        if value.hasPrefix("@") {
            let path = String(value.dropFirst())
            _ = try Self.fileSegment(path)
            return .file(name: name, fileURL: URL(fileURLWithPath: path), filename: filename, type: type)
        }
        if value.hasPrefix("<") {
            let contents = String(decoding: try Self.contents(of: String(value.dropFirst())), as: UTF8.self)
            return type.map { .data(name: name, filename: filename, data: Data(contents.utf8), type: $0) }
                ?? .field(name: name, value: contents)
        }
        return type.map { .data(name: name, data: Data(value.utf8), type: $0) } ?? .field(name: name, value: value)
    }

    // MARK: The request

    func makeRequest() throws(CurlImportError) -> Request {
        guard let written = urls.first else { throw .missingURL }
        guard urls.count == 1 else { throw .multipleURLs(urls) }
        if !data.isEmpty, !formParts.isEmpty {
            throw .unsupportedOption("-d with -F", reason: "curl refuses to send both")
        }
        if !globOff, written.contains(where: { "[]{}".contains($0) }) { throw .urlGlobbing(written) }

        var joined: [BodySegment] = []
        for (index, piece) in data.enumerated() {
            if index > 0, !piece.joinsWithoutSeparator { joined.append(.bytes(Data("&".utf8))) }
            joined += piece.bytes
        }
        var reference = URIReference(parsing: written.contains("://") ? written : "http://" + written)
        guard let scheme = reference.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let authority = reference.authority, !authority.isEmpty
        else { throw .invalidURL(written) }
        reference.fragment = nil
        if !pathAsIs { reference.path = URIReference.removeDotSegments(reference.path) }
        var body: RequestBody?
        var fields = HTTPFields()
        if dataInQuery, !data.isEmpty {
            var query = Data()
            for segment in joined {
                switch segment {
                case .bytes(let data): query += data
                case .file(let file, _): query += try Self.contents(of: file.path)
                }
            }
            let text = String(decoding: query, as: UTF8.self)
            reference.query = reference.query.map { $0 + "&" + text } ?? text
        } else if !data.isEmpty {
            body = Self.body(of: joined)
        } else if !formParts.isEmpty {
            let encoder = MultipartEncoder(boundary: MultipartEncoder.randomBoundary(), strategy: .streamed())
            do {
                body = try encoder.encode(formParts)
            } catch {
                throw .unreadableFile("a -F file: \(error)")
            }
            if !headers.contains(where: { $0.name.lowercased() == "content-type" }) {
                fields.append(HTTPField(name: .contentType, value: encoder.contentType.rawValue))
            }
        } else if let uploadFile {
            body = Self.body(of: [try Self.fileSegment(uploadFile)])
            if reference.path.hasSuffix("/") { reference.path += URL(fileURLWithPath: uploadFile).lastPathComponent }
        }
        guard let url = URL(string: reference.string) else { throw .invalidURL(written) }

        if !suppressed.contains(.accept), !headers.contains(where: { $0.name.lowercased() == "accept" }) {
            fields.append(HTTPField(name: .accept, value: isJSON ? "application/json" : "*/*"))
        }
        for (name, value) in headers {
            guard let field = try? HTTPField.validated(name, value, source: "Request(curlCommand:)") else {
                throw .invalidHeader("\(name): \(value)")
            }
            fields.append(field)
        }
        if body != nil, formParts.isEmpty, uploadFile == nil, !suppressed.contains(.contentType),
            fields[.contentType] == nil
        {
            fields.append(
                HTTPField(name: .contentType, value: isJSON ? "application/json" : "application/x-www-form-urlencoded"))
        }

        let method: HTTPRequest.Method
        if let name = self.method {
            guard let custom = HTTPRequest.Method(name) else {
                throw .unsupportedOption("--request \(name)", reason: "not an HTTP method token")
            }
            method = custom
        } else if isHead {
            method = .head
        } else if dataInQuery {
            method = .get
        } else if uploadFile != nil {
            method = .put
        } else {
            method = body == nil ? .get : .post
        }
        return Request(method: method, url: url, headerFields: fields, body: body, timeout: timeout)
    }

    /// A body of bytes and files: one file stays a file read while sending; bytes are merged.
    static func body(of segments: [BodySegment]) -> RequestBody {
        var merged: [BodySegment] = []
        for segment in segments {
            if case .bytes(let bytes) = segment, case .bytes(let previous)? = merged.last {
                merged[merged.count - 1] = .bytes(previous + bytes)
            } else {
                merged.append(segment)
            }
        }
        let length = merged.reduce(Int64(0)) { $0 + $1.length }
        return RequestBody(.segments(merged), contentType: nil, contentLength: length)
    }
}
