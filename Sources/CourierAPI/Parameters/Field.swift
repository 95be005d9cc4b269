/// One field of the JSON object or form body: `@Field("new_name") name: String`, `name: Field<String>`.
@propertyWrapper
public struct Field<Value> {
    /// The parameter's value.
    public var wrappedValue: Value
    /// The field's key, when it differs from the parameter's label.
    public let name: String?

    /// Wraps a parameter's value; `name` is read by the endpoint macros.
    public init(wrappedValue: Value, _ name: String? = nil) {
        self.wrappedValue = wrappedValue
        self.name = name
    }

    /// Wraps a value passed to a `Field<Value>` parameter.
    public init(_ value: Value) {
        self.init(wrappedValue: value)
    }
}

extension Field: Sendable where Value: Sendable {}

extension Field: ExpressibleByUnicodeScalarLiteral where Value: ExpressibleByStringLiteral {
    public init(unicodeScalarLiteral value: Value.StringLiteralType) { self.init(Value(stringLiteral: value)) }
}

extension Field: ExpressibleByExtendedGraphemeClusterLiteral where Value: ExpressibleByStringLiteral {
    public init(extendedGraphemeClusterLiteral value: Value.StringLiteralType) {
        self.init(Value(stringLiteral: value))
    }
}

extension Field: ExpressibleByStringLiteral where Value: ExpressibleByStringLiteral {
    public init(stringLiteral value: Value.StringLiteralType) { self.init(Value(stringLiteral: value)) }
}

extension Field: ExpressibleByIntegerLiteral where Value: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Value.IntegerLiteralType) { self.init(Value(integerLiteral: value)) }
}

extension Field: ExpressibleByBooleanLiteral where Value: ExpressibleByBooleanLiteral {
    public init(booleanLiteral value: Value.BooleanLiteralType) { self.init(Value(booleanLiteral: value)) }
}

extension Field: ExpressibleByFloatLiteral where Value: ExpressibleByFloatLiteral {
    public init(floatLiteral value: Value.FloatLiteralType) { self.init(wrappedValue: Value(floatLiteral: value)) }
}

extension Field: ExpressibleByArrayLiteral where Value: RangeReplaceableCollection {
    public init(arrayLiteral elements: Value.Element...) { self.init(wrappedValue: Value(elements)) }
}
