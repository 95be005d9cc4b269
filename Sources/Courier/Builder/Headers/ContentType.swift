import HTTPTypes

/// Sets `Content-Type`, replacing any earlier value; the body's own type is used only when none is set.
public struct ContentType: RequestBuildable, Sendable {
    /// The media type to send.
    public let type: MIMEType

    /// Sets `Content-Type` to `type`.
    public init(_ type: MIMEType) { self.type = type }

    /// Sets `Content-Type` to a media type written as text: `ContentType("image/jpeg")`.
    public init(_ type: String) { self.type = MIMEType(type) }

    public func apply(to draft: inout RequestDraft) throws {
        try draft.setHeader(.contentType, type.rawValue, block: "ContentType")
    }
}
