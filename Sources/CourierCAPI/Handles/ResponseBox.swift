import Courier

/// What a `courier_response` handle names: a response whose body is in memory.
final class ResponseBox: HandleObject {
    static let handleKind = HandleKind.response

    struct State {
        var response: Response
        var borrowed = BorrowedStrings()
    }

    let state: Locked<State>

    init(_ response: Response) {
        state = Locked(State(response: response))
    }

    var response: Response { state.withLock { $0.response } }

    /// Applies `edit`; on success, pointers handed out before become invalid.
    func edit(_ edit: (inout Response) throws -> Void) throws {
        try state.withLock { state in
            var copy = state.response
            try edit(&copy)
            state.response = copy
            state.borrowed.invalidate()
        }
    }
}

/// Looks up a response handle or fails naming the function.
func responseBox(_ handle: OpaquePointer?, in function: StaticString) throws -> ResponseBox {
    guard let box = HandleRegistry.shared.object(handle, as: ResponseBox.self) else {
        throw CAPIFailure.invalidHandle("response", in: "\(function)")
    }
    return box
}
