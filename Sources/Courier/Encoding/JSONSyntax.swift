#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif

/// Whether bytes are JSON text (RFC 8259; a lone string or number counts), checked with the
/// `JSONDecoder` FoundationEssentials has: `JSONSerialization` is full Foundation's.
package enum JSONSyntax {
    /// Whether `data` parses as one JSON value.
    package static func isValid(_ data: Data) -> Bool {
        (try? JSONDecoder().decode(AnyValue.self, from: data)) != nil
    }

    /// Any JSON value, decoded only to be thrown away.
    private struct AnyValue: Decodable {
        init(from decoder: any Decoder) throws {
            if var array = try? decoder.unkeyedContainer() {
                while !array.isAtEnd { _ = try array.decode(AnyValue.self) }
                return
            }
            if let object = try? decoder.container(keyedBy: AnyKey.self) {
                for key in object.allKeys { _ = try object.decode(AnyValue.self, forKey: key) }
                return
            }
            let single = try decoder.singleValueContainer()
            if single.decodeNil() { return }
            if (try? single.decode(Bool.self)) != nil { return }
            if (try? single.decode(Double.self)) != nil { return }
            _ = try single.decode(String.self)
        }
    }

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
