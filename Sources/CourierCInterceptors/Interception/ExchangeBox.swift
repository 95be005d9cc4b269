package import CCourier
package import Courier

#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What a `courier_exchange` handle names: the request (and response) passing through C callbacks.
///
/// A run of C interceptors shares one exchange for a send: each callback gets a fresh handle to
/// it, and the handle, with the request and response handles handed out under it, stops working
/// when the callback returns. A C callback that keeps one gets an invalid handle later, not a
/// dangling pointer.
///
/// Unchecked `Sendable` as `Locked` is: its state only under the lock.
package final class ExchangeBox: Locked<ExchangeBox.State>, HandleObject, @unchecked Sendable {
    package static let handleKind = HandleKind.exchange

    package enum Phase { case request, response, around }

    /// The request and response stay plain values until a callback asks for a handle, so a
    /// callback that never reads them costs no extra objects.
    package struct State {
        package var phase: Phase
        /// The interceptor whose callback holds the exchange; a failure it reports names it.
        package var interceptorName: String
        /// What `courier_exchange_attempt` reports.
        package var attempt: Int
        /// The request: a value, or from a callback's asking on, the box its handle names.
        package var request: ExchangeHeld<RequestBox>
        package var requestHandle: OpaquePointer?
        /// The response, once there is one: a value, or the box a callback's handle names.
        package var response: ExchangeHeld<ResponseBox>?
        package var responseHandle: OpaquePointer?
        package var answer: Response?
        package var failure: CAPIFailure?
        package var innerTasks: [Task<Void, Never>] = []
        package var cancelled = false
        package var requestID: UnsafeMutablePointer<CChar>?
        /// The handle the running callback holds, the spare between callbacks, or the end.
        package var call = ExchangeCallState.idle(spare: nil)

        /// The request as the callbacks left it, wherever it lives now.
        package var currentRequest: Request { request.current }

        /// The response as the callbacks left it, if there is one.
        package var currentResponse: Response? { response?.current }
    }

    package let context: InterceptorContext
    /// The rest of the chain, for `around`.
    package let next: Next?
    /// The executor a blocking `proceed` drains while it waits.
    package let executor: (any DrainingExecutor)?

    package init(
        phase: Phase, request: Request, response: Response?, context: InterceptorContext, interceptorName: String,
        next: Next? = nil, executor: (any DrainingExecutor)? = nil
    ) {
        self.context = context
        self.next = next
        self.executor = executor
        super.init(
            State(
                phase: phase, interceptorName: interceptorName, attempt: context.attempt, request: .value(request),
                response: response.map { .value($0) }))
    }

    /// The request as the callbacks left it.
    package var request: Request { withLock { $0.currentRequest } }

    /// The response as the callbacks left it, if there is one.
    package var response: Response? { withLock { $0.currentResponse } }

    package var phase: Phase { withLock { $0.phase } }

    /// Readies the exchange for `interceptorName`'s callback in the request phase, keeping the
    /// request as earlier callbacks left it.
    package func enterRequestPhase(of interceptorName: String, attempt: Int) {
        withLock { state in
            state.phase = .request
            state.interceptorName = interceptorName
            state.attempt = attempt
            state.answer = nil
            state.failure = nil
        }
    }

    /// Readies the exchange for `interceptorName`'s `on_response`, with the request it passed on
    /// and the response that came back.
    package func enterResponsePhase(of interceptorName: String, attempt: Int, request: Request, response: Response) {
        withLock { state in
            state.phase = .response
            state.interceptorName = interceptorName
            state.attempt = attempt
            Self.removeRequestHandle(&state)
            Self.removeResponseHandle(&state)
            Self.recycle(state.request.replace(with: request))
            state.response = .value(response)
            state.answer = nil
            state.failure = nil
        }
    }

    /// Runs `body` on the state while `handle` is the running callback's handle.
    ///
    /// The registry lookup alone is not enough: a C thread calling just as the callback returns
    /// could pass it and then reach the next callback's state, or an ended exchange. Checked
    /// under the lock, such a call is refused instead.
    @inline(__always)
    package func withLive<Result>(
        _ handle: OpaquePointer?, in function: StaticString = #function,
        _ body: (inout State) throws -> Result
    ) throws -> Result {
        try withLock { state in
            guard let handle, state.call.liveHandle == handle else {
                throw CAPIFailure.invalidHandle("exchange", in: function)
            }
            return try body(&state)
        }
    }

    /// The handle for the next callback, or `nil` when 16 million handles are live.
    func open() -> OpaquePointer? {
        withLock { state in
            state.call.begin { HandleRegistry.shared.register(self) }
        }
    }

    /// Ends a callback: the handles it was given stop working; the request and response stay.
    ///
    /// The exchange and request handles are renewed in place rather than removed, so the next
    /// callback that asks for them costs no registration.
    package func close() {
        withLock { state in
            guard let handle = state.call.liveHandle else { return }
            let (renewed, requestHandle) = HandleRegistry.shared.renew(
                handle, as: ExchangeBox.self,
                state.requestHandle, as: RequestBox.self)
            state.call.end(renewedAs: renewed)
            state.requestHandle = requestHandle
            Self.removeResponseHandle(&state)
        }
    }

    /// Ends the exchange: no handle to it remains, and the request id copy is freed.
    package func dispose() {
        let requestBox = withLock { state in
            HandleRegistry.shared.remove(state.call.dispose(), as: ExchangeBox.self)
            Self.removeRequestHandle(&state)
            Self.removeResponseHandle(&state)
            free(state.requestID)
            state.requestID = nil
            return state.request.unbox()
        }
        Self.recycle(requestBox)
    }

    /// The request box for a callback that asked for the request: the one it already has, or
    /// one made (from the thread's spare, if any) that takes the request over.
    package func requestBox(_ state: inout State) -> RequestBox {
        state.request.boxing { ThreadRole.current.takeSpareRequestBox(holding: $0) }
    }

    /// Gives a request box whose handle is gone back to this thread for the next exchange, when
    /// nothing else holds it: a call under way on another thread with a stale handle keeps it
    /// from reuse, so such a call can never edit another send's request.
    private static func recycle(_ box: consuming RequestBox?) {
        guard var box else { return }
        if isKnownUniquelyReferenced(&box) { ThreadRole.current.keepSpare(box) }
    }

    /// The response the callback answered with (`COURIER_ACTION_RESPOND`), carrying the request
    /// it answers; taken, as the exchange is done with it.
    package func takeAnsweredResponse() -> Response? {
        withLock { state in
            guard var answer = state.answer.take() else { return nil }
            answer.request = state.currentRequest
            return answer
        }
    }

    private static func removeRequestHandle(_ state: inout State) {
        HandleRegistry.shared.remove(state.requestHandle, as: RequestBox.self)
        state.requestHandle = nil
    }

    private static func removeResponseHandle(_ state: inout State) {
        HandleRegistry.shared.remove(state.responseHandle, as: ResponseBox.self)
        state.responseHandle = nil
    }

    /// Cancels what a blocking `proceed` is waiting for.
    package func cancelInner() {
        let tasks = withLock { state in
            state.cancelled = true
            return state.innerTasks
        }
        for task in tasks { task.cancel() }
        executor?.wake()
    }

    /// Sends the current request through the rest of the chain and blocks, draining `executor`,
    /// until it returns.
    package func proceed(as handle: OpaquePointer?) throws {
        let (phase, request) = try withLive(handle, in: "courier_exchange_proceed") { ($0.phase, $0.currentRequest) }
        guard let next, let executor, phase == .around else {
            throw CAPIFailure(COURIER_E_UNSUPPORTED, "courier_exchange_proceed: only an around callback may proceed")
        }
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
            Self.removeResponseHandle(&state)
            state.response = .value(response)
        }
    }
}

/// Looks up an exchange handle or fails naming the function.
package func exchangeBox(_ handle: OpaquePointer?, in function: StaticString = #function) throws -> ExchangeBox {
    guard let box = HandleRegistry.shared.object(handle, as: ExchangeBox.self) else {
        throw CAPIFailure.invalidHandle("exchange", in: function)
    }
    return box
}
