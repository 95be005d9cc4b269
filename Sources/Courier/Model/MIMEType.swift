/// A media type such as `application/json`, used for `Content-Type` and `Accept`.
///
/// The catalogue covers the common types (`.json`, `.Image.png`); any other is a string literal away:
/// `let type: MIMEType = "application/vnd.api+json"`.
public struct MIMEType: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The media type as written on the wire, parameters included (`text/plain; charset=utf-8`).
    public var rawValue: String

    /// Creates a media type from its wire form.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Creates a media type from its wire form.
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }

    public var description: String { rawValue }

    /// The type without parameters, lowercased: `text/plain` for `Text/Plain; charset=utf-8`.
    public var essence: String {
        let base = rawValue.split(separator: ";", maxSplits: 1).first ?? ""
        return base.trimmingSpaces().lowercased()
    }

    /// The same type with a `charset` parameter added.
    public func charset(_ charset: String) -> MIMEType { MIMEType("\(rawValue); charset=\(charset)") }
}

extension MIMEType {
    /// `application/json`
    public static let json = Application.json
    /// `application/xml`
    public static let xml = Application.xml
    /// `text/html`
    public static let html = Text.html
    /// `text/plain`
    public static let plainText = Text.plain
    /// `application/pdf`
    public static let pdf = Application.pdf
    /// `image/png`
    public static let png = Image.png
    /// `image/jpeg`
    public static let jpeg = Image.jpeg
    /// `application/octet-stream`
    public static let octetStream = Application.octetStream
    /// `application/x-www-form-urlencoded`
    public static let formURLEncoded = Application.formURLEncoded
    /// `*/*`, for `Accept`.
    public static let any: MIMEType = "*/*"

    /// `application/*` types.
    public enum Application {
        public static let json: MIMEType = "application/json"
        public static let problemJSON: MIMEType = "application/problem+json"
        public static let jsonPatch: MIMEType = "application/json-patch+json"
        public static let ndjson: MIMEType = "application/x-ndjson"
        public static let xml: MIMEType = "application/xml"
        public static let pdf: MIMEType = "application/pdf"
        public static let zip: MIMEType = "application/zip"
        public static let gzip: MIMEType = "application/gzip"
        public static let octetStream: MIMEType = "application/octet-stream"
        public static let formURLEncoded: MIMEType = "application/x-www-form-urlencoded"
        public static let javascript: MIMEType = "application/javascript"
        public static let protobuf: MIMEType = "application/x-protobuf"
        public static let msgpack: MIMEType = "application/msgpack"
        public static let wasm: MIMEType = "application/wasm"
    }

    /// `text/*` types.
    public enum Text {
        public static let plain: MIMEType = "text/plain"
        public static let html: MIMEType = "text/html"
        public static let css: MIMEType = "text/css"
        public static let csv: MIMEType = "text/csv"
        public static let xml: MIMEType = "text/xml"
        public static let markdown: MIMEType = "text/markdown"
        public static let javascript: MIMEType = "text/javascript"
        public static let eventStream: MIMEType = "text/event-stream"
    }

    /// `image/*` types.
    public enum Image {
        public static let png: MIMEType = "image/png"
        public static let jpeg: MIMEType = "image/jpeg"
        public static let gif: MIMEType = "image/gif"
        public static let webp: MIMEType = "image/webp"
        public static let svg: MIMEType = "image/svg+xml"
        public static let avif: MIMEType = "image/avif"
        public static let heic: MIMEType = "image/heic"
        public static let bmp: MIMEType = "image/bmp"
        public static let icon: MIMEType = "image/x-icon"
    }

    /// `audio/*` types.
    public enum Audio {
        public static let mpeg: MIMEType = "audio/mpeg"
        public static let ogg: MIMEType = "audio/ogg"
        public static let wav: MIMEType = "audio/wav"
        public static let webm: MIMEType = "audio/webm"
        public static let aac: MIMEType = "audio/aac"
        public static let flac: MIMEType = "audio/flac"
    }

    /// `video/*` types.
    public enum Video {
        public static let mp4: MIMEType = "video/mp4"
        public static let mpeg: MIMEType = "video/mpeg"
        public static let webm: MIMEType = "video/webm"
        public static let ogg: MIMEType = "video/ogg"
        public static let quicktime: MIMEType = "video/quicktime"
    }

    /// `multipart/*` types; the boundary parameter is added by the multipart body.
    public enum Multipart {
        public static let formData: MIMEType = "multipart/form-data"
        public static let mixed: MIMEType = "multipart/mixed"
        public static let alternative: MIMEType = "multipart/alternative"
        public static let related: MIMEType = "multipart/related"
        public static let byteranges: MIMEType = "multipart/byteranges"
    }

    /// `font/*` types.
    public enum Font {
        public static let woff: MIMEType = "font/woff"
        public static let woff2: MIMEType = "font/woff2"
        public static let ttf: MIMEType = "font/ttf"
        public static let otf: MIMEType = "font/otf"
    }
}

extension StringProtocol {
    /// The string without leading and trailing spaces and tabs (HTTP's optional white space).
    func trimmingSpaces() -> String {
        var slice = Substring(self)
        while let first = slice.first, first == " " || first == "\t" { slice.removeFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice.removeLast() }
        return String(slice)
    }
}
