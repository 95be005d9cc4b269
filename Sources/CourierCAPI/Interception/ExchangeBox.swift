import CCourier
import Courier
import Foundation

/// What a `courier_exchange` handle names: one pass of a request through one C interceptor.
///
/// It lives only while its callback runs. The request and response handles it hands out are
/// registered on demand and revoked with it, so a C callback that keeps one gets an invalid
/// handle later, not a dangling pointer.
final class ExchangeBox: Locked<ExchangeBox.State>, HandleObject, @unchecked Sendable {
    static let handleKind = HandleKind.exchange

    enum Phase { case request, response, around }

    /// The request and response stay plain values until the callback asks for a handle, so a
    /// callback that never reads them costs no extra objects.
    struct State {
        var request: Request
        var requestBox: RequestBox?
        var requestHandle: OpaquePointer?
        var response: Response?
        var responseBox: ResponseBox?
        var responseHandle: OpaquePointer?
        var answer: Response?
        var failure: CAPIFailure?
        var innerTasks: [Task<Void, Never>] = []
        var cancelled = false
        var requestID: UnsafeMutablePointer<CChar>?
    }

    let phase: Phase
    let context: InterceptorContext
    let interceptorName: String
    /// The rest of the chain, for `around`.
    let next: Next?
    /// The executor a blocking `proceed` drains while it waits.
    let executor: (any DrainingExecutor)?

    init(phase: Phase, request: Request, response: Response?, context: InterceptorContext, interceptorName: String,
         next: Next? = nil, executor: (any DrainingExecutor)? = nil) {
        self.phase = phase
        self.context = context
        self.interceptorName = interceptorName
        self.next = next
        self.executor = executor
        super.init(State(request: request, response: response))
    }

    /// The request as the callback left it.
    var request: Request { withLock { $0.requestBox?.request ?? $0.request } }

    /// The response as the callback left it, if there is one.
    var response: Response? { withLock { $0.responseBox?.response ?? $0.response } }

    /// Revokes every handle the callback was given.
    func revoke(_ handle: OpaquePointer?) {
        HandleRegistry.shared.remove(handle, as: ExchangeBox.self)
        withLock { state in
            if let handle = state.requestHandle { HandleRegistry.shared.remove(handle, as: RequestBox.self) }
            if let handle = state.responseHandle { HandleRegistry.shared.remove(handle, as: ResponseBox.self) }
            state.requestHandle = nil
            state.responseHandle = nil
            free(state.requestID)
            state.requestID = nil
        }
    }

    /// Cancels what a blocking `proceed` is waiting for.
    func cancelInner() {
        let tasks = withLock { state in
            state.cancelled = true
            return state.innerTasks
        }
        for task in tasks { task.cancel() }
        executor?.wake()
    }

    /// Sends the current request through the rest of the chain and blocks, draining `executor`,
    /// until it returns.
    func proceed() throws {
        guard phase == .around, let next, let executor else {
            throw CAPIFailure(COURIER_E_UNSUPPORTED, "courier_exchange_proceed: only an around callback may proceed")
        }
        let request = self.request
        let limit = context.limits.maxBodyBytes
        let slot = ResultSlot<Response>()
        let task = Task(executorPreference: executor) {
            do {
                slot.set(.success(try await next(request).collectingBody(upTo: limit)))
            } catch {
                slot.set(.failure(error))
            }
            executor.wake()
        }
        let alreadyCancelled = withLock { state in
            state.innerTasks.append(task)
            return state.cancelled
        }
        if alreadyCancelled { task.cancel() }
        executor.drain(until: { slot.isSet })
        withLock { $0.innerTasks.removeAll() }
        let response = try slot.value!.get()
        withLock { state in
            HandleRegistry.shared.remove(state.responseHandle, as: ResponseBox.self)
            state.responseHandle = nil
            state.responseBox = nil
            state.response = response
        }
    }
}

/// Looks up an exchange handle or fails naming the function.
func exchangeBox(_ handle: OpaquePointer?, in function: StaticString) throws -> ExchangeBox {
    guard let box = HandleRegistry.shared.object(handle, as: ExchangeBox.self) else {
        throw CAPIFailure.invalidHandle("exchange", in: "\(function)")
    }
    return box
}
