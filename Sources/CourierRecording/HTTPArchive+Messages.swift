public import Courier

extension HTTPArchive {
    /// A request as the archive holds it.
    public struct Request: Codable, Sendable, Equatable {
        /// The method (`GET`).
        public var method: String
        /// The absolute URL, query included.
        public var url: String
        /// The protocol version; empty, since Courier's responses do not carry it.
        public var httpVersion: String
        /// The cookies sent, from the `Cookie` field.
        public var cookies: [Cookie]
        /// The header fields, in order.
        public var headers: [NameValue]
        /// The query items of `url`, decoded.
        public var queryString: [NameValue]
        /// The body and its media type, when there was a body.
        public var postData: PostData?
        /// The size of the head; `-1`, unknown.
        public var headersSize: Int
        /// The size of the body in bytes; `-1` when unknown (a stream of unannounced length).
        public var bodySize: Int
        /// A note for people.
        public var comment: String?

        /// A request from its parts.
        public init(
            method: String, url: String, httpVersion: String = "", cookies: [Cookie] = [], headers: [NameValue] = [],
            queryString: [NameValue] = [], postData: PostData? = nil, headersSize: Int = -1, bodySize: Int = 0,
            comment: String? = nil
        ) {
            self.method = method
            self.url = url
            self.httpVersion = httpVersion
            self.cookies = cookies
            self.headers = headers
            self.queryString = queryString
            self.postData = postData
            self.headersSize = headersSize
            self.bodySize = bodySize
            self.comment = comment
        }
    }

    /// A response as the archive holds it.
    public struct Response: Codable, Sendable, Equatable {
        /// The status code; `0` when the exchange failed before a response.
        public var status: Int
        /// The reason phrase.
        public var statusText: String
        /// The protocol version; empty, since Courier's responses do not carry it.
        public var httpVersion: String
        /// The cookies set, from the `Set-Cookie` fields.
        public var cookies: [Cookie]
        /// The header fields, in order.
        public var headers: [NameValue]
        /// The body.
        public var content: Content
        /// The `Location` field, or empty.
        public var redirectURL: String
        /// The size of the head; `-1`, unknown.
        public var headersSize: Int
        /// The body bytes received; `-1` when the transport decoded a `Content-Encoding`, so the
        /// size on the wire is unknown.
        public var bodySize: Int
        /// A note for people; the error, for an exchange that failed.
        public var comment: String?

        /// A response from its parts.
        public init(
            status: Int, statusText: String, httpVersion: String = "", cookies: [Cookie] = [],
            headers: [NameValue] = [],
            content: Content, redirectURL: String = "", headersSize: Int = -1, bodySize: Int = -1,
            comment: String? = nil
        ) {
            self.status = status
            self.statusText = statusText
            self.httpVersion = httpVersion
            self.cookies = cookies
            self.headers = headers
            self.content = content
            self.redirectURL = redirectURL
            self.headersSize = headersSize
            self.bodySize = bodySize
            self.comment = comment
        }
    }

    /// A header field or a query item.
    public struct NameValue: Codable, Sendable, Equatable {
        /// The name, as sent.
        public var name: String
        /// The value.
        public var value: String
        /// A note for people.
        public var comment: String?

        /// A pair.
        public init(name: String, value: String, comment: String? = nil) {
            self.name = name
            self.value = value
            self.comment = comment
        }
    }

    /// A cookie sent or set.
    public struct Cookie: Codable, Sendable, Equatable {
        /// The name.
        public var name: String
        /// The value (the redaction replacement when cookies are redacted).
        public var value: String
        /// The `Path` attribute.
        public var path: String?
        /// The `Domain` attribute.
        public var domain: String?
        /// The `HttpOnly` attribute.
        public var httpOnly: Bool?
        /// The `Secure` attribute.
        public var secure: Bool?
        /// A note for people.
        public var comment: String?

        /// A cookie.
        public init(
            name: String, value: String, path: String? = nil, domain: String? = nil, httpOnly: Bool? = nil,
            secure: Bool? = nil, comment: String? = nil
        ) {
            self.name = name
            self.value = value
            self.path = path
            self.domain = domain
            self.httpOnly = httpOnly
            self.secure = secure
            self.comment = comment
        }
    }

    /// A request body.
    ///
    /// HAR 1.2 has no encoding for request bodies, so a body that is not UTF-8 text is written as
    /// base64 in `text` with the custom field `_encoding: "base64"` (the format allows fields
    /// starting with `_`), which HAR 1.3 proposes as `encoding`.
    public struct PostData: Codable, Sendable, Equatable {
        /// The media type (`Content-Type`), or empty.
        public var mimeType: String
        /// The body as text, or base64 when `encoding` says so; `nil` when it was not recorded.
        public var text: String?
        /// Form parameters, as browsers write URL-encoded forms; Courier writes `text`.
        public var params: [Param]?
        /// `"base64"` when `text` is base64.
        public var encoding: String?
        /// A note for people: why the body was not recorded, for one.
        public var comment: String?

        enum CodingKeys: String, CodingKey {
            case mimeType, text, params, comment
            case encoding = "_encoding"
        }

        /// A body.
        public init(
            mimeType: String, text: String?, params: [Param]? = nil, encoding: String? = nil, comment: String? = nil
        ) {
            self.mimeType = mimeType
            self.text = text
            self.params = params
            self.encoding = encoding
            self.comment = comment
        }
    }

    /// A posted form parameter.
    public struct Param: Codable, Sendable, Equatable {
        /// The name.
        public var name: String
        /// The value.
        public var value: String?
        /// The file name, for an uploaded file.
        public var fileName: String?
        /// The file's media type.
        public var contentType: String?
        /// A note for people.
        public var comment: String?

        /// A parameter.
        public init(
            name: String, value: String? = nil, fileName: String? = nil, contentType: String? = nil,
            comment: String? = nil
        ) {
            self.name = name
            self.value = value
            self.fileName = fileName
            self.contentType = contentType
            self.comment = comment
        }
    }

    /// A response body.
    public struct Content: Codable, Sendable, Equatable {
        /// The body's length in bytes, as the reader received it (after content decoding).
        public var size: Int
        /// Bytes saved by compression, when known.
        public var compression: Int?
        /// The media type (`Content-Type`), or `x-unknown`.
        public var mimeType: String
        /// The body as text, or base64 when `encoding` is `"base64"`; cut at the recorder's limit
        /// (`comment` then says so), and `nil` when nothing was read.
        public var text: String?
        /// `"base64"` for a body that is not UTF-8 text.
        public var encoding: String?
        /// A note for people.
        public var comment: String?

        /// A body.
        public init(
            size: Int, compression: Int? = nil, mimeType: String, text: String? = nil, encoding: String? = nil,
            comment: String? = nil
        ) {
            self.size = size
            self.compression = compression
            self.mimeType = mimeType
            self.text = text
            self.encoding = encoding
            self.comment = comment
        }
    }
}
