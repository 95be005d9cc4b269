public import Foundation

/// A value that can be sent as query items: the text of each item it adds under one key.
///
/// Strings, numbers, `Bool`, `UUID` and arrays of them conform; a string-backed enum conforms by
/// declaring `extension Sort: QueryValue {}`.
public protocol QueryValue {
    /// The item values, one per repetition of the key (one for a scalar, one per element for an array).
    var queryValues: [String] { get }
}

extension QueryValue where Self: LosslessStringConvertible {
    public var queryValues: [String] { [String(self)] }
}

extension QueryValue where Self: RawRepresentable, RawValue: QueryValue {
    public var queryValues: [String] { rawValue.queryValues }
}

extension String: QueryValue {}
extension Substring: QueryValue {}
extension Character: QueryValue {}
extension Int: QueryValue {}
extension Int8: QueryValue {}
extension Int16: QueryValue {}
extension Int32: QueryValue {}
extension Int64: QueryValue {}
extension UInt: QueryValue {}
extension UInt8: QueryValue {}
extension UInt16: QueryValue {}
extension UInt32: QueryValue {}
extension UInt64: QueryValue {}
extension Double: QueryValue {}
extension Float: QueryValue {}
extension Bool: QueryValue {}

extension UUID: QueryValue {
    public var queryValues: [String] { [uuidString] }
}

extension Array: QueryValue where Element: QueryValue {
    public var queryValues: [String] { flatMap(\.queryValues) }
}
