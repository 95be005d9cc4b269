public import HTTPTypes

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// One part of a `multipart/form-data` body: its header fields and where its bytes come from.
///
/// Names and filenames are quoted for you, with line breaks dropped, so user input cannot add a
/// header or end the part early.
public struct MultipartPart: Sendable {
    /// Where a part's bytes come from: memory, or a file read when the body is encoded or sent.
    enum Content: Sendable {
        case bytes(Data)
        case file(URL)
    }

    /// The form field name, as given (before quoting).
    public let name: String
    /// The part's header fields in wire order, `Content-Disposition` first.
    public private(set) var headerFields: HTTPFields
    let content: Content

    private init(name: String, filename: String?, type: MIMEType?, content: Content) {
        var disposition = "form-data; name=\(Self.quoted(name))"
        if let filename { disposition += "; filename=\(Self.quoted(filename))" }
        var fields = HTTPFields()
        fields[.contentDisposition] = disposition
        if let type { fields[.contentType] = type.rawValue }
        self.name = name
        self.headerFields = fields
        self.content = content
    }

    /// A text field: its value's UTF-8 bytes, with no `Content-Type` (RFC 7578 reads that as `text/plain`).
    public static func field(name: String, value: String) -> MultipartPart {
        MultipartPart(name: name, filename: nil, type: nil, content: .bytes(Data(value.utf8)))
    }

    /// Bytes you already hold, sent as an upload; `application/octet-stream` unless another type is given.
    public static func data(
        name: String, filename: String? = nil, data: Data, type: MIMEType = .octetStream
    ) -> MultipartPart {
        MultipartPart(name: name, filename: filename, type: type, content: .bytes(data))
    }

    /// A file upload; checked when the request is built and read as the body's strategy says.
    ///
    /// The filename defaults to the file's last path component and the type to one guessed from
    /// its extension, `application/octet-stream` when the extension is unknown.
    public static func file(name: String, fileURL: URL, filename: String? = nil, type: MIMEType? = nil) -> MultipartPart
    {
        MultipartPart(
            name: name,
            filename: filename ?? fileURL.lastPathComponent,
            type: type ?? MIMEType.guessed(forPathExtension: fileURL.pathExtension),
            content: .file(fileURL))
    }

    /// This part with a header field set, replacing one of the same name (`Content-ID`, or your own `Content-Type`).
    ///
    /// Line breaks in `value` become spaces, as `HTTPFields` legalizes every value.
    public func header(_ name: HTTPField.Name, _ value: String) -> MultipartPart {
        var copy = self
        copy.headerFields[name] = value
        return copy
    }

    /// `text` as an RFC 9110 quoted-string: `\` and `"` escaped with a backslash, CR and LF dropped.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\r", "\n":
                continue
            case "\\", "\"":
                result.unicodeScalars.append("\\")
                result.unicodeScalars.append(scalar)
            default:
                result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}

extension MIMEType {
    /// Common file extensions and their media types, for uploads whose type is not given.
    private static let byPathExtension: [String: MIMEType] = [
        "txt": .plainText, "text": .plainText, "html": .html, "htm": .html, "css": Text.css,
        "csv": Text.csv, "md": Text.markdown, "js": Text.javascript, "json": .json, "xml": .xml,
        "pdf": .pdf, "zip": Application.zip, "gz": Application.gzip, "wasm": Application.wasm,
        "png": .png, "jpg": .jpeg, "jpeg": .jpeg, "gif": Image.gif, "webp": Image.webp,
        "svg": Image.svg, "avif": Image.avif, "heic": Image.heic, "bmp": Image.bmp, "ico": Image.icon,
        "mp3": Audio.mpeg, "ogg": Audio.ogg, "wav": Audio.wav, "flac": Audio.flac, "aac": Audio.aac,
        "mp4": Video.mp4, "webm": Video.webm, "mov": Video.quicktime,
        "woff": Font.woff, "woff2": Font.woff2, "ttf": Font.ttf, "otf": Font.otf,
    ]

    /// The media type usual for files ending in `pathExtension`, or `application/octet-stream`.
    static func guessed(forPathExtension pathExtension: String) -> MIMEType {
        byPathExtension[pathExtension.lowercased()] ?? .octetStream
    }
}
