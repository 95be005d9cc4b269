#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

extension RequestBody {
    /// Form fields as an `application/x-www-form-urlencoded` body, in the order given.
    ///
    /// Names and values are encoded as HTML forms do (WHATWG URL): ASCII letters, digits and
    /// `*-._` stay as they are, a space becomes `+`, every other byte `%XX`. An item with a `nil`
    /// value is written as `name=`, since the form serializer has no value-less field.
    public static func urlEncoded(_ items: [URLQueryItem]) -> RequestBody {
        let text = URLFormEncoder.serialize(items.map { (name: $0.name, value: $0.value) })
        return .data(Data(text.utf8), type: .formURLEncoded)
    }

    /// The fields of an `Encodable` value as an `application/x-www-form-urlencoded` body,
    /// flattened with the request's `URLFormEncoder` when the request is built.
    ///
    /// Nested members become `a[b]=…`, arrays follow the encoder's `arrayEncoding`, `nil` members are left out.
    public static func urlEncoded(_ encodable: some Encodable & Sendable) -> RequestBody {
        deferred(source: "RequestBody.urlEncoded") { context in
            let fields = try context.formEncoder.fields(of: encodable, source: "RequestBody.urlEncoded")
            let text = URLFormEncoder.serialize(fields.map { (name: $0.name, value: Optional($0.value)) })
            return .data(Data(text.utf8), type: .formURLEncoded)
        }
    }
}
