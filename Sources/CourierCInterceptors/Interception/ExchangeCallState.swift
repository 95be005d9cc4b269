/// Whether C can reach an exchange, and with which handle: only while one of its callbacks runs.
///
/// Between callbacks the exchange keeps the handle the last one held, renewed (a new generation,
/// never handed out), so the next callback reuses its registry slot instead of registering again;
/// a call that presents the old handle is refused, as is every call after the exchange ended.
package enum ExchangeCallState: Equatable {
    /// No callback runs; `spare` is the renewed handle for the next one, if there is one.
    case idle(spare: OpaquePointer?)
    /// A callback runs and holds this handle.
    case calling(OpaquePointer)
    /// The exchange ended; its handle left the registry.
    case disposed

    /// The handle a call must present: the running callback's, or none.
    package var liveHandle: OpaquePointer? {
        guard case .calling(let handle) = self else { return nil }
        return handle
    }

    /// Starts a callback with the spare handle or one `register` makes; `nil` when none can be
    /// made (every handle is live) or the exchange ended.
    package mutating func begin(register: () -> OpaquePointer?) -> OpaquePointer? {
        switch self {
        case .idle(let spare):
            guard let handle = spare ?? register() else { return nil }
            self = .calling(handle)
            return handle
        case .calling(let handle):
            return handle
        case .disposed:
            return nil
        }
    }

    /// Ends the running callback; `renewed` is its handle's next generation, kept for the next one.
    package mutating func end(renewedAs renewed: OpaquePointer?) {
        guard case .calling = self else { return }
        self = .idle(spare: renewed)
    }

    /// Ends the exchange; returns the handle to take out of the registry, if it had one.
    package mutating func dispose() -> OpaquePointer? {
        let handle: OpaquePointer? =
            switch self {
            case .idle(let spare): spare
            case .calling(let handle): handle
            case .disposed: nil
            }
        self = .disposed
        return handle
    }
}
