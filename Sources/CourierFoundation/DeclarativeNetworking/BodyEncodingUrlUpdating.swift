public import Courier
public import Foundation

/// An encoder that says which media type it writes, so a body it encodes carries its
/// `Content-Type` (DeclarativeNetworking's extension point for bodies). Any encoder with
/// `encode(_:) -> Data`, such as `PropertyListEncoder`, conforms by adding the media type:
///
/// ```swift
/// extension PropertyListEncoder: MimeTypingTopLevelEncoder {
///     public var encodingMimeType: String { "application/x-plist" }
/// }
/// ```
public protocol MimeTypingTopLevelEncoder {
    /// Encodes `value` into the bytes of a body.
    func encode<Value: Encodable>(_ value: Value) throws -> Data
    /// The media type of what `encode` writes.
    var encodingMimeType: String { get }
}

/// A body encoded by any `MimeTypingTopLevelEncoder`, with its media type: `BodyEncodingUrlUpdating(settings, PropertyListEncoder())`.
public struct BodyEncodingUrlUpdating: RequestBuildable, Sendable {
    private let encoded: Result<(Data, String), CourierError>

    /// `body` encoded now by `encoder`.
    public init<Body: Encodable, Encoder: MimeTypingTopLevelEncoder>(_ body: Body, _ encoder: Encoder) {
        do {
            encoded = .success((try encoder.encode(body), encoder.encodingMimeType))
        } catch {
            encoded = .failure(
                CourierError(
                    .encodingFailed, "\(Encoder.self) could not encode \(Body.self)",
                    source: "BodyEncodingUrlUpdating", underlying: error))
        }
    }

    public func apply(to draft: inout RequestDraft) throws {
        let (data, type) = try encoded.get()
        draft.body = .data(data, type: MIMEType(type))
    }
}
