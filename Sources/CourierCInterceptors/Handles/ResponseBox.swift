package import Courier

/// What a `courier_response` handle names: a response whose body is in memory.
///
/// Unchecked `Sendable` as `Locked` is: its state only under the lock.
package final class ResponseBox: Locked<ResponseBox.State>, HandleObject, @unchecked Sendable {
    package static let handleKind = HandleKind.response

    package struct State {
        package var response: Response
        /// Copies handed out to C.
        package var borrowed = BorrowedSlot()

        package init(response: consuming Response) { self.response = response }
    }

    package init(_ response: consuming Response) {
        super.init(State(response: consume response))
    }

    package var response: Response { withLock { $0.response } }

    /// Applies `edit` in place (edits check their input first); on success, pointers handed out
    /// before become invalid.
    package func edit(_ edit: (inout Response) throws -> Void) rethrows {
        try withLock { state in
            try edit(&state.response)
            state.borrowed.invalidate()
        }
    }
}

/// Looks up a response handle or fails naming the function.
package func responseBox(_ handle: OpaquePointer?, in function: StaticString = #function) throws -> ResponseBox {
    guard let box = HandleRegistry.shared.object(handle, as: ResponseBox.self) else {
        throw CAPIFailure.invalidHandle("response", in: function)
    }
    return box
}
