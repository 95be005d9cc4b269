/// A key for a typed per-request option; the key type's `defaultValue` applies when nothing was set.
///
/// Interceptors and transports declare their own keys, so any stage of the pipeline can carry
/// a setting to any other without Courier knowing about it:
///
/// ```swift
/// enum TraceSampled: RequestOptionKey { static let defaultValue = false }
/// request.options[TraceSampled.self] = true
/// ```
public protocol RequestOptionKey: Sendable {
    /// The type of the option's value.
    associatedtype Value: Sendable
    /// The value read when the option was never set.
    static var defaultValue: Value { get }
}

/// Typed per-request options, keyed by `RequestOptionKey` types.
public struct RequestOptions: Sendable {
    private var values: [ObjectIdentifier: any Sendable] = [:]

    /// Creates an empty set of options; every key reads its default.
    public init() {}

    /// The value for `key`, or the key's default when it was never set.
    public subscript<Key: RequestOptionKey>(_ key: Key.Type) -> Key.Value {
        get {
            // No hashing or dynamic cast for an option never set, which every send asks about.
            guard !values.isEmpty, let value = values[ObjectIdentifier(key)] else { return Key.defaultValue }
            return value as? Key.Value ?? Key.defaultValue
        }
        set { values[ObjectIdentifier(key)] = newValue }
    }

    /// Whether `key` was set explicitly, as opposed to reading its default.
    public func contains<Key: RequestOptionKey>(_ key: Key.Type) -> Bool {
        values[ObjectIdentifier(key)] != nil
    }

    /// Forgets the value for `key`, so it reads its default again.
    public mutating func removeValue<Key: RequestOptionKey>(for key: Key.Type) {
        values[ObjectIdentifier(key)] = nil
    }
}
