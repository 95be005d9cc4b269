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
    /// Creates a media type from a string literal such as `"application/vnd.api+json"`.
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
        /// `application/json`
        public static let json: MIMEType = "application/json"
        /// `application/problem+json`
        public static let problemJSON: MIMEType = "application/problem+json"
        /// `application/json-patch+json`
        public static let jsonPatch: MIMEType = "application/json-patch+json"
        /// `application/x-ndjson`
        public static let ndjson: MIMEType = "application/x-ndjson"
        /// `application/xml`
        public static let xml: MIMEType = "application/xml"
        /// `application/pdf`
        public static let pdf: MIMEType = "application/pdf"
        /// `application/zip`
        public static let zip: MIMEType = "application/zip"
        /// `application/gzip`
        public static let gzip: MIMEType = "application/gzip"
        /// `application/octet-stream`
        public static let octetStream: MIMEType = "application/octet-stream"
        /// `application/x-www-form-urlencoded`
        public static let formURLEncoded: MIMEType = "application/x-www-form-urlencoded"
        /// `application/javascript`
        public static let javascript: MIMEType = "application/javascript"
        /// `application/x-protobuf`
        public static let protobuf: MIMEType = "application/x-protobuf"
        /// `application/msgpack`
        public static let msgpack: MIMEType = "application/msgpack"
        /// `application/wasm`
        public static let wasm: MIMEType = "application/wasm"
    }

    /// `text/*` types.
    public enum Text {
        /// `text/plain`
        public static let plain: MIMEType = "text/plain"
        /// `text/html`
        public static let html: MIMEType = "text/html"
        /// `text/css`
        public static let css: MIMEType = "text/css"
        /// `text/csv`
        public static let csv: MIMEType = "text/csv"
        /// `text/xml`
        public static let xml: MIMEType = "text/xml"
        /// `text/markdown`
        public static let markdown: MIMEType = "text/markdown"
        /// `text/javascript`
        public static let javascript: MIMEType = "text/javascript"
        /// `text/event-stream`
        public static let eventStream: MIMEType = "text/event-stream"
    }

    /// `image/*` types.
    public enum Image {
        /// `image/png`
        public static let png: MIMEType = "image/png"
        /// `image/jpeg`
        public static let jpeg: MIMEType = "image/jpeg"
        /// `image/gif`
        public static let gif: MIMEType = "image/gif"
        /// `image/webp`
        public static let webp: MIMEType = "image/webp"
        /// `image/svg+xml`
        public static let svg: MIMEType = "image/svg+xml"
        /// `image/avif`
        public static let avif: MIMEType = "image/avif"
        /// `image/heic`
        public static let heic: MIMEType = "image/heic"
        /// `image/bmp`
        public static let bmp: MIMEType = "image/bmp"
        /// `image/x-icon`
        public static let icon: MIMEType = "image/x-icon"
    }

    /// `audio/*` types.
    public enum Audio {
        /// `audio/mpeg`
        public static let mpeg: MIMEType = "audio/mpeg"
        /// `audio/ogg`
        public static let ogg: MIMEType = "audio/ogg"
        /// `audio/wav`
        public static let wav: MIMEType = "audio/wav"
        /// `audio/webm`
        public static let webm: MIMEType = "audio/webm"
        /// `audio/aac`
        public static let aac: MIMEType = "audio/aac"
        /// `audio/flac`
        public static let flac: MIMEType = "audio/flac"
    }

    /// `video/*` types.
    public enum Video {
        /// `video/mp4`
        public static let mp4: MIMEType = "video/mp4"
        /// `video/mpeg`
        public static let mpeg: MIMEType = "video/mpeg"
        /// `video/webm`
        public static let webm: MIMEType = "video/webm"
        /// `video/ogg`
        public static let ogg: MIMEType = "video/ogg"
        /// `video/quicktime`
        public static let quicktime: MIMEType = "video/quicktime"
    }

    /// `multipart/*` types; the boundary parameter is added by the multipart body.
    public enum Multipart {
        /// `multipart/form-data`
        public static let formData: MIMEType = "multipart/form-data"
        /// `multipart/mixed`
        public static let mixed: MIMEType = "multipart/mixed"
        /// `multipart/alternative`
        public static let alternative: MIMEType = "multipart/alternative"
        /// `multipart/related`
        public static let related: MIMEType = "multipart/related"
        /// `multipart/byteranges`
        public static let byteranges: MIMEType = "multipart/byteranges"
    }

    /// `font/*` types.
    public enum Font {
        /// `font/woff`
        public static let woff: MIMEType = "font/woff"
        /// `font/woff2`
        public static let woff2: MIMEType = "font/woff2"
        /// `font/ttf`
        public static let ttf: MIMEType = "font/ttf"
        /// `font/otf`
        public static let otf: MIMEType = "font/otf"
    }
}

extension StringProtocol {
    /// The string without leading and trailing spaces and tabs (HTTP's optional white space).
    func trimmingSpaces() -> String {
        // By scalar, not by Character: a space followed by a combining mark is one Character, so
        // trimming Characters kept it, and a valid header value was refused (fuzz-header-field).
        var slice = Substring(self).unicodeScalars
        while let first = slice.first, first == " " || first == "\t" { slice = slice.dropFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice = slice.dropLast() }
        return String(slice)
    }
}
