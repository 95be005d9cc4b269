/// Header fields by name: `Header.accept.setValue("application/json")`, `Header.custom("X-Trace").addValue("a")`.
///
/// `setValue` replaces every line of that name; `addValue` joins the new value to the existing
/// one with `, `, as `URLRequest.addValue(_:forHTTPHeaderField:)` does.
public enum Header {
    /// The `Content-Type` field.
    public static let contentType = HeaderName("Content-Type", block: "Header.contentType")
    /// The `Accept` field.
    public static let accept = HeaderName("Accept", block: "Header.accept")
    /// The `Authorization` field.
    public static let authorization = HeaderName("Authorization", block: "Header.authorization")
    /// The `User-Agent` field.
    public static let userAgent = HeaderName("User-Agent", block: "Header.userAgent")
    /// The `Origin` field.
    public static let origin = HeaderName("Origin", block: "Header.origin")
    /// `Cookie`; `addValue` joins with `; ` as RFC 6265 requires a single Cookie line.
    public static let cookie = HeaderName("Cookie", block: "Header.cookie", separator: "; ")
    /// The `Referer` field.
    public static let referer = HeaderName("Referer", block: "Header.referer")
    /// The `Host` field.
    public static let host = HeaderName("Host", block: "Header.host")
    /// The `Accept-Language` field.
    public static let acceptLanguage = HeaderName("Accept-Language", block: "Header.acceptLanguage")
    /// The `Accept-Encoding` field.
    public static let acceptEncoding = HeaderName("Accept-Encoding", block: "Header.acceptEncoding")
    /// The `Cache-Control` field.
    public static let cacheControl = HeaderName("Cache-Control", block: "Header.cacheControl")

    /// Any header field by name; an invalid name fails the build.
    public static func custom(_ name: String) -> HeaderName {
        HeaderName(name, block: "Header.custom")
    }
}

/// A header field name, from which blocks that set, add or remove it are made.
public struct HeaderName: Sendable, Hashable {
    /// The field name as given.
    public let name: String
    let block: String
    let separator: String

    init(_ name: String, block: String, separator: String = ", ") {
        self.name = name
        self.block = block
        self.separator = separator
    }

    /// A block that replaces every line of this field with `value`.
    public func setValue(_ value: String) -> HeaderBlock { HeaderBlock(self, .set(value)) }

    /// A block that joins `value` to this field's existing value, or adds the field.
    public func addValue(_ value: String) -> HeaderBlock { HeaderBlock(self, .add(value)) }

    /// A block that removes every line of this field.
    public func remove() -> HeaderBlock { HeaderBlock(self, .remove) }
}

/// Sets, adds to, or removes one header field; made by `Header`.
public struct HeaderBlock: RequestBuildable, Sendable {
    enum Edit: Sendable {
        case set(String)
        case add(String)
        case remove
    }

    let name: HeaderName
    let edit: Edit

    init(_ name: HeaderName, _ edit: Edit) {
        self.name = name
        self.edit = edit
    }

    public func apply(to draft: inout RequestDraft) throws {
        switch edit {
        case .set(let value):
            try draft.setHeader(name.name, value, block: name.block)
        case .add(let value):
            try draft.addHeader(name.name, value, separator: name.separator, block: name.block)
        case .remove:
            try draft.removeHeader(name.name, block: name.block)
        }
    }
}
