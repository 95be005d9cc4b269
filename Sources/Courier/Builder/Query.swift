/// Query items: `Query("page", 2)` appends `page=2` (a builder block over ``QueryItems``); with
/// CourierAPI, `@Query("q") keyword: String` on a struct endpoint and `merchant: Query<String>` in
/// an `@API` protocol.
///
/// One declaration serves all three, so a file importing `Courier`, `CourierCurl` and `CourierAPI`
/// together finds one `Query`. A `nil` value omits the item entirely, so optional filters read
/// naturally: `Query("cursor", cursor)`.
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

extension Query: RequestBuildable where Value == QueryItems {
    public func apply(to draft: inout RequestDraft) throws {
        try wrappedValue.apply(to: &draft)
    }
}

extension Query where Value == QueryItems {
    init(block: QueryItems) {
        self.init(wrappedValue: block)
    }

    /// Appends `name=value`; nothing when `value` is `nil`.
    public init(_ name: String, _ value: String?) {
        self.init(block: QueryItems(items: value.map { [(name, $0)] } ?? [], source: "Query"))
    }

    /// Appends `name=value` using the value's description (`Query("page", 2)`); nothing when `nil`.
    public init(_ name: String, _ value: (some CustomStringConvertible)?) {
        self.init(name, value.map(\.description))
    }

    /// Appends a name with no value (`?flag`).
    public init(flag name: String) {
        self.init(block: QueryItems(items: [(name, nil)], source: "Query"))
    }
}

extension Query: ExpressibleByFloatLiteral where Value: ExpressibleByFloatLiteral {
    public init(floatLiteral value: Value.FloatLiteralType) { self.init(wrappedValue: Value(floatLiteral: value)) }
}

extension Query: ExpressibleByArrayLiteral where Value: RangeReplaceableCollection {
    public init(arrayLiteral elements: Value.Element...) { self.init(wrappedValue: Value(elements)) }
}
