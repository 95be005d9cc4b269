import Foundation
import HTTPTypes
import Testing

@testable import Courier

/// Builds a request whose URL starts as `url`.
func build(
    _ url: String = "https://api.example.com/v1", @RequestBuilder _ content: () throws -> RequestBlockGroup
) throws -> Request {
    try #require(URL(string: url)).buildRequest(content)
}

/// The header lines of `fields` as `name: value` strings, in order.
func lines(_ fields: HTTPFields) -> [String] {
    fields.map { "\($0.name.rawName): \($0.value)" }
}

/// A thread-safe counter for callbacks observed by tests.
final class Counter: Sendable {
    private let storage = Protected(0)
    func increment() { storage.withLock { $0 += 1 } }
    var value: Int { storage.withLock { $0 } }
}
