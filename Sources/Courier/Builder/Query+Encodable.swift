extension Query where Value == QueryItems {
    /// Appends the fields of an `Encodable` value, flattened by the request's `URLFormEncoder`:
    /// `Query(Filter(status: "open", tags: ["a", "b"]))` appends `status=open&tags=a&tags=b`.
    ///
    /// The value is encoded when the block is applied, with the encoder set by any `FormCoding`
    /// declared before it. `nil` members are left out.
    ///
    /// - Throws: when applied, `encodingFailed` naming `Query` if the value is not keyed at the
    ///   top level or a member fails to encode.
    public init(_ encodable: some Encodable & Sendable) {
        self.init(
            block: QueryItems(source: "Query") { encoder in
                try encoder.fields(of: encodable, source: "Query").map { (name: $0.name, value: Optional($0.value)) }
            })
    }
}

extension Query where Value == QueryItems {
    /// A lone string is almost always a forgotten value; it warns at compile time and fails the build.
    @available(
        *, deprecated, message: "Query needs a name and a value: Query(\"name\", value), or Query(flag: \"name\")"
    )
    public init(_ name: String) {
        self.init(
            block: QueryItems(source: "Query") { _ in
                throw CourierError(
                    .invalidRequest,
                    "Query(\"\(name)\") has no value; write Query(\"\(name)\", value) or Query(flag: \"\(name)\")",
                    source: "Query")
            })
    }
}
