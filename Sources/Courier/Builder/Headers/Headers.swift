/// A group of header nodes: only header nodes compile inside it.
///
/// ```swift
/// Headers {
///     AcceptHeader(.json)
///     AcceptHeader(.plainText).quality(0.5)
///     UserAgentHeader("Courier/1.0")
///     AuthorizationHeader.bearer(token)
///     CustomHeader("X-Request-Source", "ios").appending()
/// }
/// ```
public struct Headers: RequestBuildable {
    let nodes: [any HeaderNode]

    /// Groups the header nodes in `content`.
    public init(@HeadersBuilder _ content: () throws -> [any HeaderNode]) rethrows {
        self.nodes = try content()
    }

    public func apply(to draft: inout RequestDraft) throws {
        for node in nodes { try node.line.apply(to: &draft) }
    }
}

/// The result builder of `Headers { … }`; it accepts `HeaderNode` values only.
@resultBuilder
public enum HeadersBuilder {
    public static func buildExpression(_ node: some HeaderNode) -> [any HeaderNode] { [node] }
    public static func buildBlock(_ groups: [any HeaderNode]...) -> [any HeaderNode] { groups.flatMap { $0 } }
    public static func buildOptional(_ group: [any HeaderNode]?) -> [any HeaderNode] { group ?? [] }
    public static func buildEither(first group: [any HeaderNode]) -> [any HeaderNode] { group }
    public static func buildEither(second group: [any HeaderNode]) -> [any HeaderNode] { group }
    public static func buildArray(_ groups: [[any HeaderNode]]) -> [any HeaderNode] { groups.flatMap { $0 } }
    public static func buildLimitedAvailability(_ group: [any HeaderNode]) -> [any HeaderNode] { group }
}

/// One header line inside `Headers { … }`, set or appended according to its mode.
///
/// The nodes are the result-builder seed's spellings of the core's header blocks: each writes
/// its field through the same `RequestDraft.setHeader`/`addHeader` and quality-value formatting
/// as the block it stands for (`SeedSpellingsTests` pins that they build the same request).
public protocol HeaderNode: Sendable {
    /// The field, value and mode this node writes.
    var line: HeaderLine { get set }
}

extension HeaderNode {
    /// This node, replacing every earlier value of its field.
    public func replacing() -> Self {
        var copy = self
        copy.line.mode = .replace
        return copy
    }

    /// This node, joining its value to the field's earlier value with `, `.
    public func appending() -> Self {
        var copy = self
        copy.line.mode = .append
        return copy
    }
}

/// The field a header node writes, its value, and whether it replaces or appends.
public struct HeaderLine: Sendable {
    /// Whether a node replaces earlier values or appends to them.
    public enum Mode: Sendable {
        case replace
        case append
    }

    /// The field name.
    public var name: String
    /// The field value, before any quality weight.
    public var value: String
    /// Replace or append.
    public var mode: Mode
    /// The preference weight appended as `;q=`, for negotiation headers.
    public var quality: Double?
    let block: String
    /// Input found invalid when the node was made, thrown when it is applied.
    var failure: CourierError?

    init(_ name: String, _ value: String, mode: Mode, block: String) {
        self.name = name
        self.value = value
        self.mode = mode
        self.block = block
    }

    func apply(to draft: inout RequestDraft) throws {
        if let failure { throw failure }
        let written = try QualityValue.append(quality, to: value, block: block)
        switch mode {
        case .replace: try draft.setHeader(name, written, block: block)
        case .append: try draft.addHeader(name, written, block: block)
        }
    }
}

/// A node that can carry a negotiation weight.
public protocol WeightedHeaderNode: HeaderNode {}

extension WeightedHeaderNode {
    /// This node with a preference weight from 0 to 1, sent as `;q=`.
    public func quality(_ quality: Double) -> Self {
        var copy = self
        copy.line.quality = quality
        return copy
    }
}

/// `Accept`; appends by default, so several accumulate into one line.
///
/// The grouped-headers spelling of ``Accept`` (and of `Header.accept.addValue(_:)`): all three
/// write the field through `RequestDraft.addHeader` with the same quality-value formatting.
public struct AcceptHeader: WeightedHeaderNode {
    public var line: HeaderLine
    /// Accepts `type`.
    public init(_ type: MIMEType) { line = HeaderLine("Accept", type.rawValue, mode: .append, block: "AcceptHeader") }
}

/// `Content-Type`; replaces by default. The grouped-headers spelling of ``ContentType`` and
/// `Header.contentType.setValue(_:)`.
public struct ContentTypeHeader: HeaderNode {
    public var line: HeaderLine
    /// Declares the body's media type.
    public init(_ type: MIMEType) {
        line = HeaderLine("Content-Type", type.rawValue, mode: .replace, block: "ContentTypeHeader")
    }
}

/// `User-Agent`; replaces by default. The grouped-headers spelling of `Header.userAgent.setValue(_:)`.
public struct UserAgentHeader: HeaderNode {
    public var line: HeaderLine
    /// Identifies the client as `product`.
    public init(_ product: String) {
        line = HeaderLine("User-Agent", product, mode: .replace, block: "UserAgentHeader")
    }
}

/// `Host`; replaces by default (the grouped-headers spelling of `Header.host.setValue(_:)`). Transports send the URL's host unless this overrides it.
public struct HostHeader: HeaderNode {
    public var line: HeaderLine
    /// Sends `host` (with an optional `:port`) as the Host field.
    public init(_ host: String) { line = HeaderLine("Host", host, mode: .replace, block: "HostHeader") }
}

/// `Origin`; replaces by default. The grouped-headers spelling of `Header.origin.setValue(_:)`.
public struct OriginHeader: HeaderNode {
    public var line: HeaderLine
    /// Sends `origin` (`https://app.example.com`).
    public init(_ origin: String) { line = HeaderLine("Origin", origin, mode: .replace, block: "OriginHeader") }
}

/// `Referer`; replaces by default. The grouped-headers spelling of `Header.referer.setValue(_:)`.
public struct RefererHeader: HeaderNode {
    public var line: HeaderLine
    /// Sends `referer`.
    public init(_ referer: String) { line = HeaderLine("Referer", referer, mode: .replace, block: "RefererHeader") }
}

/// `Accept-Language`; appends by default. The grouped-headers spelling of ``AcceptLanguage``
/// with one language and `Header.acceptLanguage.addValue(_:)`.
public struct AcceptLanguageHeader: WeightedHeaderNode {
    public var line: HeaderLine
    /// Accepts `language` (`fr-CH`).
    public init(_ language: String) {
        line = HeaderLine("Accept-Language", language, mode: .append, block: "AcceptLanguageHeader")
    }
}

/// `Accept-Encoding`; appends by default. The grouped-headers spelling of
/// `Header.acceptEncoding.addValue(_:)`.
public struct AcceptEncodingHeader: WeightedHeaderNode {
    public var line: HeaderLine
    /// Accepts the content coding `encoding` (`gzip`, `br`).
    public init(_ encoding: String) {
        line = HeaderLine("Accept-Encoding", encoding, mode: .append, block: "AcceptEncodingHeader")
    }
}

/// Any field by name; replaces by default. The grouped-headers spelling of
/// `Header.custom(_:).setValue(_:)`.
public struct CustomHeader: HeaderNode {
    public var line: HeaderLine
    /// Sends `name: value`.
    public init(_ name: String, _ value: String) {
        line = HeaderLine(name, value, mode: .replace, block: "CustomHeader")
    }
}
