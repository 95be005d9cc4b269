import HTTPTypes

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Sets `Idempotency-Key`, so a retried POST or PATCH is applied once by servers that honour it.
///
/// `IdempotencyKey()` makes a fresh UUID each time the request is built; the retry interceptor
/// reads this header to decide that a non-idempotent request is safe to resend.
public struct IdempotencyKey: RequestBuildable, Sendable {
    let key: String?

    /// A fresh random UUID (lowercase), generated when the request is built.
    public init() { self.key = nil }

    /// A key you chose, such as one stored with an order so every resend reuses it.
    public init(_ key: String) { self.key = key }

    public func apply(to draft: inout RequestDraft) throws {
        let value = key ?? UUID().uuidString.lowercased()
        guard !value.isEmpty else {
            throw CourierError.invalidRequest("an idempotency key cannot be empty", block: "IdempotencyKey")
        }
        try draft.setHeader(.idempotencyKey, value, block: "IdempotencyKey")
    }
}

extension HTTPField.Name {
    /// `Idempotency-Key` (draft-ietf-httpapi-idempotency-key-header), which swift-http-types does not name.
    static let idempotencyKey = HTTPField.Name("Idempotency-Key")!
}
