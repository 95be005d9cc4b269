/// A query item: `@Query("q") keyword: String` on a struct endpoint, `merchant: Query<String>` in an
/// `@API` protocol, and, with two strings, the core's builder block (`Query("page", 2)`).
///
/// One type serves all three because `import CourierAPI` puts this `Query` in front of the core's:
/// as a builder block it wraps the core block (`Courier.Query`) and applies it unchanged.
@propertyWrapper
public struct Query<Value> {
    /// The parameter's value.
    public var wrappedValue: Value
    /// The item's name, when it differs from the parameter's label.
    public let name: String?
    /// Whether the value is already percent-encoded.
    public let encoded: Bool

    /// Wraps a parameter's value; `name` and `encoded` are read by the endpoint macros.
    public init(wrappedValue: Value, _ name: String? = nil, encoded: Bool = false) {
        self.wrappedValue = wrappedValue
        self.name = name
        self.encoded = encoded
    }
}

extension Query: Sendable where Value: Sendable {}

extension Query: ExpressibleByUnicodeScalarLiteral where Value: ExpressibleByStringLiteral {
    public init(unicodeScalarLiteral value: Value.StringLiteralType) {
        self.init(wrappedValue: Value(stringLiteral: value))
    }
}

extension Query: ExpressibleByExtendedGraphemeClusterLiteral where Value: ExpressibleByStringLiteral {
    public init(extendedGraphemeClusterLiteral value: Value.StringLiteralType) {
        self.init(wrappedValue: Value(stringLiteral: value))
    }
}

extension Query: ExpressibleByStringLiteral where Value: ExpressibleByStringLiteral {
    public init(stringLiteral value: Value.StringLiteralType) { self.init(wrappedValue: Value(stringLiteral: value)) }
}

extension Query: ExpressibleByIntegerLiteral where Value: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Value.IntegerLiteralType) {
        self.init(wrappedValue: Value(integerLiteral: value))
    }
}

extension Query: ExpressibleByBooleanLiteral where Value: ExpressibleByBooleanLiteral {
    public init(booleanLiteral value: Value.BooleanLiteralType) {
        self.init(wrappedValue: Value(booleanLiteral: value))
    }
}

extension Query: RequestBuildable where Value == Courier.Query {
    public func apply(to draft: inout RequestDraft) throws {
        try wrappedValue.apply(to: &draft)
    }
}

extension Query where Value == Courier.Query {
    /// The core block: appends `name=value`; nothing when `value` is `nil`.
    public init(_ name: String, _ value: String?) {
        self.init(wrappedValue: Courier.Query(name, value))
    }

    /// The core block: appends `name=value` using the value's description; nothing when `nil`.
    public init(_ name: String, _ value: (some CustomStringConvertible)?) {
        self.init(wrappedValue: Courier.Query(name, value))
    }

    /// The core block: appends a name with no value (`?flag`).
    public init(flag name: String) {
        self.init(wrappedValue: Courier.Query(flag: name))
    }

    /// The core block: the fields of an `Encodable` value as query items.
    public init(_ encodable: some Encodable & Sendable) {
        self.init(wrappedValue: Courier.Query(encodable))
    }
}

extension Query: ExpressibleByFloatLiteral where Value: ExpressibleByFloatLiteral {
    public init(floatLiteral value: Value.FloatLiteralType) { self.init(wrappedValue: Value(floatLiteral: value)) }
}

extension Query: ExpressibleByArrayLiteral where Value: RangeReplaceableCollection {
    public init(arrayLiteral elements: Value.Element...) { self.init(wrappedValue: Value(elements)) }
}
