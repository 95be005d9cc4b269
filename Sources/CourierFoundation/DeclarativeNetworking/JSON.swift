public import Courier
public import Foundation

/// A JSON body with `Content-Type: application/json`, encoded with the encoder given
/// (DeclarativeNetworking's `JSON`): `JSON(post, encoder)`, or a one-off encoder built in place:
///
/// ```swift
/// JSON(post) {
///     JSONEncoder.DateEncodingStrategy.millisecondsSince1970
///     JSONEncoder.OutputFormatting([.sortedKeys])
/// }
/// ```
///
/// The value is encoded when the block is written; a value that fails to encode fails the build
/// with `encodingFailed`. `RequestBody.json(_:)` is the form that uses the client's encoder.
public struct JSON: RequestBuildable, Sendable {
    private let encoded: Result<Data, CourierError>

    /// `value` encoded by `encoder` (a default `JSONEncoder` when not given).
    public init<Value: Encodable>(_ value: Value, _ encoder: JSONEncoder = JSONEncoder()) {
        do {
            encoded = .success(try encoder.encode(value))
        } catch {
            encoded = .failure(
                CourierError(
                    .encodingFailed, "could not encode \(Value.self) as JSON", source: "JSON", underlying: error))
        }
    }

    /// `value` encoded by the encoder `settings` build.
    public init<Value: Encodable>(_ value: Value, @JSONEncoderBuilder _ settings: () -> JSONEncoder) {
        self.init(value, settings())
    }

    public func apply(to draft: inout RequestDraft) throws {
        draft.body = .data(try encoded.get(), type: .json)
    }
}
