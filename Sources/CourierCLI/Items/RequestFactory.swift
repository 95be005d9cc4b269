public import Courier
import CourierRequestItems
public import Foundation
import HTTPTypes

/// Turns a request line, body options and piped input into a `Request`, through Courier's builder.
///
/// Every check the builder makes (header names and values, the URL, the timeout, readable files)
/// applies, so bad input is a `CourierError` naming what was wrong, never a silently odd request.
public struct RequestFactory: Sendable {
    /// How data items are encoded.
    public enum BodyStyle: Sendable, Equatable {
        /// JSON, the default; `field@path` switches to multipart.
        case json
        /// `--form`: URL-encoded fields, or multipart when a file is present.
        case form
        /// `--multipart`: multipart/form-data even without a file.
        case multipart
    }

    /// Basic or bearer credentials from `--auth` and `--bearer`.
    public enum Credentials: Sendable, Equatable {
        /// `--auth user:password`.
        case basic(username: String, password: String)
        /// `--bearer token`.
        case bearer(String)

        /// The builder block that puts these credentials on a request.
        public var authorization: Authorization {
            switch self {
            case .basic(let username, let password): Authorization.basic(username: username, password: password)
            case .bearer(let token): Authorization.bearer(token)
            }
        }
    }

    /// The `User-Agent` sent unless an item replaces or removes it.
    public static let userAgent = "courier/\(CourierCommand.version)"
    /// The `Accept` sent with JSON data, a piped body or `--json`, as HTTPie 3.2 sends it.
    public static let jsonAccept = "application/json, */*;q=0.5"
    /// The `Content-Type` of a `--form` body (and of `--form` without one), as HTTPie 3.2 sends it.
    public static let formContentType = MIMEType.formURLEncoded.charset("utf-8")

    /// The method, URL and items.
    public var line: RequestLine
    /// How data items are encoded.
    public var style: BodyStyle = .json
    /// Whether `--json` was given: JSON `Accept` even without data.
    public var forcesJSON = false
    /// The bytes piped to standard input, used as the body; `nil` when there are none.
    public var standardInput: Data?
    /// `--raw`: the body, sent verbatim like piped input.
    public var rawBody: String?
    /// `--boundary`: the multipart boundary, instead of a random one.
    public var boundary: String?
    /// `--path-as-is`: keep the path's `.` and `..` segments instead of squashing them.
    public var keepsDotSegments = false
    /// The credentials to send, if any.
    public var credentials: Credentials?
    /// The request's total deadline, if any.
    public var timeout: Duration?

    /// A factory for `line`, with the defaults for everything else.
    public init(line: RequestLine) { self.line = line }

    /// The request, built and validated.
    ///
    /// - Throws: `CourierError` (`invalidRequest` or `encodingFailed`) from the builder, or
    ///   `RequestFactoryError` when the items contradict each other or the options.
    public func makeRequest() throws -> Request {
        let body = try makeBody()
        let method = line.method ?? (body == nil ? "GET" : "POST")
        let headerItems = line.items.filter { !$0.isBodyItem }
        var request = try Request {
            Method.custom(method)
            BaseURL(
                keepsDotSegments
                    ? URLShorthand.expand(line.url) : DotSegments.removed(from: URLShorthand.expand(line.url)))
            for case .query(let name, let value) in headerItems { Query(name, value) }
            Header.userAgent.setValue(Self.userAgent)
            Header.accept.setValue(wantsJSON ? Self.jsonAccept : "*/*")
            if body == nil, let type = contentTypeWithoutBody { Header.contentType.setValue(type.rawValue) }
            if let credentials { credentials.authorization }
            for block in headerBlocks(headerItems) { block }
            if let body { body }
            if let timeout { Timeout(timeout) }
        }
        // The builder adds the body's Content-Type after every block, so `Content-Type:` is applied again here.
        for case .removedHeader(let name) in headerItems {
            if let field = HTTPField.Name(name) { request.headerFields[field] = nil }
        }
        return request
    }

    /// Whether the request asks for JSON back: `--json`, JSON data items, or a piped body without
    /// `--form` (HTTPie 3.2's rule: it treats any piped body as JSON data).
    var wantsJSON: Bool {
        forcesJSON
            || (style == .json
                && (standardInput != nil || rawBody != nil || (line.items.contains { $0.isBodyItem } && !hasFiles)))
    }

    /// The `Content-Type` HTTPie 3.2 sends even without a body: JSON for `--json`, the form type
    /// for `--form`, so the server reads an empty body as the kind the user said it is.
    var contentTypeWithoutBody: MIMEType? {
        if forcesJSON { return .json }
        return style == .form ? Self.formContentType : nil
    }

    private var hasFiles: Bool {
        line.items.contains { if case .file = $0 { true } else { false } }
    }

    /// Header items in order: the first of a name replaces the default, later ones add lines.
    private func headerBlocks(_ items: [RequestItem]) -> [any RequestBuildable] {
        var seen: Set<String> = []
        var blocks: [any RequestBuildable] = []
        for item in items {
            switch item {
            case .header(let name, let value):
                let header = Header.custom(name)
                blocks.append(
                    seen.insert(name.lowercased()).inserted
                        ? header.setValue(value) : AppendedHeader(name: name, value: value))
            case .emptyHeader(let name):
                seen.insert(name.lowercased())
                blocks.append(Header.custom(name).setValue(""))
            case .removedHeader(let name):
                seen.insert(name.lowercased())
                blocks.append(Header.custom(name).remove())
            case .query, .dataField, .rawJSONField, .file:
                continue
            }
        }
        return blocks
    }

    /// The body the items or standard input make, or `nil` for none.
    func makeBody() throws -> RequestBody? {
        let bodyItems = line.items.filter(\.isBodyItem)
        if style == .multipart, rawBody != nil || standardInput != nil {
            throw RequestFactoryError.multipartWithWholeBody
        }
        if let rawBody {
            guard bodyItems.isEmpty, standardInput == nil else { throw RequestFactoryError.rawWithOtherBody }
            let data = Data(rawBody.utf8)
            return .data(data, type: Self.type(ofPiped: data, style: style, forcesJSON: forcesJSON))
        }
        if let standardInput {
            guard bodyItems.isEmpty else { throw RequestFactoryError.standardInputWithData }
            return .data(standardInput, type: Self.type(ofPiped: standardInput, style: style, forcesJSON: forcesJSON))
        }
        guard !bodyItems.isEmpty else {
            // HTTPie's --multipart without fields still sends a multipart body: the closing delimiter.
            if style == .multipart { return try multipart([]) }
            guard boundary == nil else { throw RequestFactoryError.boundaryWithoutMultipart }
            return nil
        }
        if hasFiles || style == .multipart {
            guard !forcesJSON else { throw RequestFactoryError.filesNeedForm }
            return try multipart(bodyItems)
        }
        guard boundary == nil else { throw RequestFactoryError.boundaryWithoutMultipart }
        switch style {
        case .json:
            var builder = NestedJSONBuilder()
            for item in bodyItems {
                switch item {
                case .dataField(let name, let value): try builder.add(name, .string(value))
                case .rawJSONField(let name, let json): try builder.add(name, .raw(json))
                default: continue
                }
            }
            return .json(text: builder.body.text)
        case .form, .multipart:
            // A name given twice is sent twice (`a=1&a=2`), as HTTPie sends it.
            let fields = try bodyItems.map { item -> URLQueryItem in
                guard case .dataField(let name, let value) = item else { throw RequestFactoryError.rawJSONInForm }
                return URLQueryItem(name: name.text, value: value)
            }
            var body = RequestBody.urlEncoded(fields)
            body.contentType = Self.formContentType
            return body
        }
    }

    private func multipart(_ items: [RequestItem]) throws -> RequestBody {
        let parts = try items.map { item -> MultipartPart in
            switch item {
            case .dataField(let name, let value):
                return MultipartPart.field(name: name.text, value: value)
            case .file(let field, let path, let type):
                return MultipartPart.file(
                    name: field, fileURL: URL(fileURLWithPath: path), type: type.map { MIMEType($0) })
            default:
                throw RequestFactoryError.rawJSONInForm
            }
        }
        return .multipart(strategy: .streamed(), boundary: boundary) {
            for part in parts { part }
        }
    }

    /// The content type of piped bytes: form with `--form`, JSON with `--json` or when they are JSON,
    /// UTF-8 text when they are text, bytes otherwise.
    static func type(ofPiped data: Data, style: BodyStyle, forcesJSON: Bool) -> MIMEType {
        if style == .form { return formContentType }
        if forcesJSON || JSONText.isValid(data) { return .json }
        return String(data: data, encoding: .utf8) != nil ? MIMEType.plainText.charset("utf-8") : .octetStream
    }
}

/// Appends a second line for a header that an earlier item already set (`Accept:a Accept:b`).
struct AppendedHeader: RequestBuildable {
    let name: String
    let value: String

    func apply(to draft: inout RequestDraft) throws {
        try draft.appendHeaderLine(name, value, block: "Header.custom")
    }
}

/// Items and options that cannot go together.
public enum RequestFactoryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Data items and a piped body were both given.
    case standardInputWithData
    /// `name:=json` items with `--form` or file uploads.
    case rawJSONInForm
    /// `field@path` items with `--json`.
    case filesNeedForm
    /// `--raw` with data items or a piped body.
    case rawWithOtherBody
    /// `--boundary` for a body that is not multipart.
    case boundaryWithoutMultipart
    /// `--multipart` with `--raw` or a piped body, which are sent whole.
    case multipartWithWholeBody

    public var description: String {
        switch self {
        case .standardInputWithData:
            "data items (name=value) and a body piped to standard input cannot be mixed; pass --ignore-stdin to drop the piped input"
        case .rawJSONInForm:
            "raw JSON fields (name:=json) need a JSON body, not --form or a file upload"
        case .filesNeedForm:
            "file uploads (field@path) are sent as multipart/form-data, not --json"
        case .rawWithOtherBody:
            "the request body from --raw and request data (name=value) or a body piped to standard input cannot be mixed; pass --ignore-stdin to drop the piped input"
        case .boundaryWithoutMultipart:
            "--boundary needs a multipart body: --multipart, or a file field (field@path) with data items"
        case .multipartWithWholeBody:
            "--multipart builds the body from data items (name=value, field@path); it cannot send --raw or a body piped to standard input"
        }
    }
}
