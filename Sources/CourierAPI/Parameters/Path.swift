/// A path parameter: `@Path("gid") groupId: Int` on a struct endpoint, `id: Path<Int>` in an
/// `@API` protocol. Parameters named like a placeholder need neither.
@propertyWrapper
public struct Path<Value> {
    /// The parameter's value.
    public var wrappedValue: Value
    /// The placeholder it fills, when it differs from the parameter name.
    public let name: String?
    /// Whether the value is already percent-encoded, so it may contain `/`.
    public let encoded: Bool

    /// Wraps a parameter's value; `name` and `encoded` are read by the endpoint macros.
    public init(wrappedValue: Value, _ name: String? = nil, encoded: Bool = false) {
        self.wrappedValue = wrappedValue
        self.name = name
        self.encoded = encoded
    }

    /// Wraps a value passed to a `Path<Value>` parameter.
    public init(_ value: Value) {
        self.init(wrappedValue: value)
    }
}

extension Path: Sendable where Value: Sendable {}

extension Path: ExpressibleByUnicodeScalarLiteral where Value: ExpressibleByStringLiteral {
    public init(unicodeScalarLiteral value: Value.StringLiteralType) { self.init(Value(stringLiteral: value)) }
}

extension Path: ExpressibleByExtendedGraphemeClusterLiteral where Value: ExpressibleByStringLiteral {
    public init(extendedGraphemeClusterLiteral value: Value.StringLiteralType) {
        self.init(Value(stringLiteral: value))
    }
}

extension Path: ExpressibleByStringLiteral where Value: ExpressibleByStringLiteral {
    public init(stringLiteral value: Value.StringLiteralType) { self.init(Value(stringLiteral: value)) }
}

extension Path: ExpressibleByIntegerLiteral where Value: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Value.IntegerLiteralType) { self.init(Value(integerLiteral: value)) }
}

extension Path: ExpressibleByBooleanLiteral where Value: ExpressibleByBooleanLiteral {
    public init(booleanLiteral value: Value.BooleanLiteralType) { self.init(Value(booleanLiteral: value)) }
}

extension Path: ExpressibleByFloatLiteral where Value: ExpressibleByFloatLiteral {
    public init(floatLiteral value: Value.FloatLiteralType) { self.init(wrappedValue: Value(floatLiteral: value)) }
}

extension Path: ExpressibleByArrayLiteral where Value: RangeReplaceableCollection {
    public init(arrayLiteral elements: Value.Element...) { self.init(wrappedValue: Value(elements)) }
}
