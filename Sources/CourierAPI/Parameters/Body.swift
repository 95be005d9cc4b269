/// The whole request body: `@Body item: Item` on a struct endpoint, `todo: Body<Todo>` in an `@API`
/// protocol. An endpoint has at most one, and no fields beside it.
@propertyWrapper
public struct Body<Value> {
    /// The parameter's value.
    public var wrappedValue: Value
    /// Wraps a parameter's value.
    public init(wrappedValue: Value) {
        self.wrappedValue = wrappedValue
    }

    /// Wraps a value passed to a `Body<Value>` parameter.
    public init(_ value: Value) {
        self.init(wrappedValue: value)
    }
}

extension Body: Sendable where Value: Sendable {}

extension Body: ExpressibleByUnicodeScalarLiteral where Value: ExpressibleByStringLiteral {
    public init(unicodeScalarLiteral value: Value.StringLiteralType) { self.init(Value(stringLiteral: value)) }
}

extension Body: ExpressibleByExtendedGraphemeClusterLiteral where Value: ExpressibleByStringLiteral {
    public init(extendedGraphemeClusterLiteral value: Value.StringLiteralType) {
        self.init(Value(stringLiteral: value))
    }
}

extension Body: ExpressibleByStringLiteral where Value: ExpressibleByStringLiteral {
    public init(stringLiteral value: Value.StringLiteralType) { self.init(Value(stringLiteral: value)) }
}

extension Body: ExpressibleByIntegerLiteral where Value: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Value.IntegerLiteralType) { self.init(Value(integerLiteral: value)) }
}

extension Body: ExpressibleByBooleanLiteral where Value: ExpressibleByBooleanLiteral {
    public init(booleanLiteral value: Value.BooleanLiteralType) { self.init(Value(booleanLiteral: value)) }
}

extension Body: ExpressibleByFloatLiteral where Value: ExpressibleByFloatLiteral {
    public init(floatLiteral value: Value.FloatLiteralType) { self.init(wrappedValue: Value(floatLiteral: value)) }
}

extension Body: ExpressibleByArrayLiteral where Value: RangeReplaceableCollection {
    public init(arrayLiteral elements: Value.Element...) { self.init(wrappedValue: Value(elements)) }
}
