public import Courier
public import Foundation

/// Builds a `JSONEncoder` from its settings, written as values in any order (DeclarativeNetworking):
///
/// ```swift
/// @JSONEncoderBuilder var encoder: JSONEncoder {
///     JSONEncoder.DateEncodingStrategy.millisecondsSince1970
///     JSONEncoder.OutputFormatting([.sortedKeys, .withoutEscapingSlashes])
/// }
/// ```
///
/// Takes the date, data, key and non-conforming float strategies, the output formatting and the
/// user info; a later value of the same kind wins.
@resultBuilder
public enum JSONEncoderBuilder {
    /// One setting, applied to the encoder being built.
    public struct Setting {
        let apply: (JSONEncoder) -> Void
    }

    public static func buildExpression(_ strategy: JSONEncoder.DateEncodingStrategy) -> [Setting] {
        [Setting { $0.dateEncodingStrategy = strategy }]
    }

    public static func buildExpression(_ strategy: JSONEncoder.DataEncodingStrategy) -> [Setting] {
        [Setting { $0.dataEncodingStrategy = strategy }]
    }

    public static func buildExpression(_ strategy: JSONEncoder.KeyEncodingStrategy) -> [Setting] {
        [Setting { $0.keyEncodingStrategy = strategy }]
    }

    public static func buildExpression(_ strategy: JSONEncoder.NonConformingFloatEncodingStrategy) -> [Setting] {
        [Setting { $0.nonConformingFloatEncodingStrategy = strategy }]
    }

    public static func buildExpression(_ formatting: JSONEncoder.OutputFormatting) -> [Setting] {
        [Setting { $0.outputFormatting = formatting }]
    }

    /// Entries added to the encoder's `userInfo`.
    public static func buildExpression(_ userInfo: [CodingUserInfoKey: any Sendable]) -> [Setting] {
        [Setting { encoder in encoder.userInfo.merge(userInfo) { _, new in new } }]
    }

    public static func buildBlock(_ settings: [Setting]...) -> [Setting] { settings.flatMap { $0 } }

    public static func buildOptional(_ settings: [Setting]?) -> [Setting] { settings ?? [] }

    public static func buildEither(first settings: [Setting]) -> [Setting] { settings }

    public static func buildEither(second settings: [Setting]) -> [Setting] { settings }

    public static func buildArray(_ settings: [[Setting]]) -> [Setting] { settings.flatMap { $0 } }

    public static func buildFinalResult(_ settings: [Setting]) -> JSONEncoder {
        let encoder = JSONEncoder()
        for setting in settings { setting.apply(encoder) }
        return encoder
    }
}
