import Synchronization

/// One transport call shared by every identical request in flight: the leader's work runs in
/// its own task, and each member waits for the result on its own, so a member that is
/// cancelled leaves without disturbing the others.
///
/// When the last member leaves before the result, the work is cancelled and the call is
/// marked abandoned, so a later identical request starts a fresh one instead of joining.
final class SharedCall: Sendable {
    private struct State {
        var result: Result<Response, CourierError>?
        var waiters: [UInt64: CheckedContinuation<Response, any Error>] = [:]
        var members = 0
        var nextID: UInt64 = 0
        var isAbandoned = false
        var work: Task<Void, Never>?
    }

    private let state = Mutex(State())

    /// Adds a member; `false` when the call was abandoned and must not be joined.
    func join() -> Bool {
        state.withCheckedLock { state in
            guard !state.isAbandoned else { return false }
            state.members += 1
            return true
        }
    }

    /// Starts the shared work; `finished` runs once it is done, before any member sees the result.
    func start(_ work: @escaping @Sendable () async throws -> Response, finished: @escaping @Sendable () -> Void) {
        let task = Task {
            let result: Result<Response, CourierError>
            do {
                result = .success(try await work())
            } catch let error as CourierError {
                result = .failure(error)
            } catch {
                result = .failure(CourierError(.interceptorFailed, "the shared request failed: \(error)",
                                               source: "SingleFlightInterceptor", underlying: error))
            }
            finished()
            let waiters = state.withCheckedLock { state in
                state.result = result
                defer { state.waiters = [:] }
                return Array(state.waiters.values)
            }
            for waiter in waiters { waiter.resume(with: result) }
        }
        state.withCheckedLock { $0.work = task }
    }

    /// The shared result, for a member that joined; throws `cancelled` when this member's task is cancelled.
    func value(for request: Request) async throws -> Response {
        let id = state.withCheckedLock { state in
            state.nextID += 1
            return state.nextID
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Response, any Error>) in
                let ready = state.withCheckedLock { state -> Result<Response, CourierError>? in
                    if let result = state.result { return result }
                    if Task.isCancelled {
                        leave(&state)
                        return .failure(Self.cancelled(request))
                    }
                    state.waiters[id] = continuation
                    return nil
                }
                if let ready { continuation.resume(with: ready) }
            }
        } onCancel: {
            let waiter = state.withCheckedLock { state -> CheckedContinuation<Response, any Error>? in
                guard let waiter = state.waiters.removeValue(forKey: id) else { return nil }
                leave(&state)
                return waiter
            }
            waiter?.resume(throwing: Self.cancelled(request))
        }
    }

    /// Drops a member; the last one to leave before the result cancels the work.
    private func leave(_ state: inout State) {
        state.members -= 1
        if state.members == 0, state.result == nil {
            state.isAbandoned = true
            state.work?.cancel()
        }
    }

    private static func cancelled(_ request: Request) -> CourierError {
        CourierError(.cancelled, "the request was cancelled while waiting for an identical one in flight",
                     source: "SingleFlightInterceptor", request: request)
    }
}
