package import CCourier
package import Courier

#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif

/// A C interceptor: its callbacks, and how the action a callback returns becomes what the chain
/// does next.
///
/// `on_request` and `on_response` run inline on the thread running the send, so a C interceptor
/// that edits headers costs no thread hop; in a client's chain, consecutive ones run together as
/// one `CInterceptorRun`. `around` blocks in `proceed`, so it runs on a Courier thread: inline
/// when the send already runs on one (a blocking send, an asynchronous send), otherwise on the
/// shared callback pool.
///
/// `@unchecked Sendable` for the callbacks and `user_data`, immutable after registration. The
/// invariant, from courier.h: `user_data` stays valid until `destroy` is called, which happens
/// once, when the last client holding the interceptor lets it go (`deinit`); the callbacks may be
/// called from several threads at once and say so in the header.
package final class CInterceptor: Interceptor, @unchecked Sendable {
    package let name: String
    package let onRequest: courier_exchange_fn?
    package let onResponse: courier_exchange_fn?
    private let around: courier_exchange_fn?
    private let userData: UnsafeMutableRawPointer?
    private let destroy: courier_destroy_fn?
    /// The timeout of requests that set none, to report a callback that ran past the deadline.
    private let defaultTimeout: Duration?

    /// The most times `on_response` may ask for a retry in one send.
    package static let maxRetries = 8

    /// Reads the caller's `courier_interceptor` by the extensible-struct rule and checks it.
    package init(
        _ pointer: UnsafePointer<courier_interceptor>, defaultTimeout: Duration?, in function: StaticString = #function
    ) throws {
        var defaults = courier_interceptor()
        courier_interceptor_init(&defaults)
        let definition = try ExtensibleStruct.read(
            pointer, over: defaults,
            firstVersionSize: ExtensibleStruct.FirstVersionSize.interceptor,
            name: "courier_interceptor", in: function)
        name = try CInput.string(definition.name, "interceptor->name", in: function)
        guard !name.isEmpty else { throw CAPIFailure.invalidArgument("interceptor->name is empty", in: function) }
        if definition.around != nil, definition.on_request != nil || definition.on_response != nil {
            throw CAPIFailure.invalidArgument(
                "interceptor \(name) sets around together with on_request or on_response",
                in: function)
        }
        guard definition.around != nil || definition.on_request != nil || definition.on_response != nil else {
            throw CAPIFailure.invalidArgument("interceptor \(name) has no callback", in: function)
        }
        onRequest = definition.on_request
        onResponse = definition.on_response
        around = definition.around
        userData = definition.user_data
        destroy = definition.destroy
        self.defaultTimeout = defaultTimeout
    }

    deinit {
        if let destroy { ThreadRole.inCallback { destroy(userData) } }
    }

    /// Whether this interceptor wraps the chain with `around`, rather than running inline callbacks.
    package var wrapsChain: Bool { around != nil }

    package func intercept(_ request: Request, context: InterceptorContext, next: Next) async throws -> Response {
        if let around { return try await interceptAround(around, request, context: context, next: next) }
        return try await CInterceptorRun(members: [self]).intercept(request, context: context, next: next)
    }

    /// What the chain does after a callback.
    package enum Outcome {
        case `continue`
        /// The callback answered: the response it gave `courier_exchange_respond`, taken from the exchange.
        case respond(Response)
        case retry
    }

    /// Calls `callback` with a handle to `exchange`, closes the handle, and reads the action.
    ///
    /// - Parameters:
    ///   - role: the current thread's role, which marks the call as a callback.
    ///   - timeout: the request's own timeout, if it has one; the callback may not run past it.
    ///   - clock: when the callback was started, or the previous one returned (`MonotonicClock`);
    ///     it moves on to now.
    package func call(
        _ callback: courier_exchange_fn, with exchange: ExchangeBox, role: ThreadRole, timeout: Duration?,
        clock: inout Int64
    ) throws -> Outcome {
        guard let handle = exchange.open() else {
            throw failure(.interceptorFailed, "has no handle left: too many are live")
        }
        let action = role.inCallback { callback(userData, handle) }
        let now = MonotonicClock.now()
        let elapsed = Duration.nanoseconds(now - clock)
        clock = now
        exchange.close()
        if let timeout = timeout ?? defaultTimeout, elapsed > timeout {
            var error = failure(
                .timedOut,
                "took \(elapsed) in a callback, past the request's timeout of \(timeout)")
            error.request = exchange.request
            throw error
        }
        return try outcome(of: action, exchange: exchange)
    }

    private func outcome(of action: courier_action, exchange: ExchangeBox) throws -> Outcome {
        switch action {
        case COURIER_ACTION_CONTINUE:
            return .continue
        case COURIER_ACTION_RESPOND:
            guard let answer = exchange.takeAnsweredResponse() else {
                throw misbehaved("returned COURIER_ACTION_RESPOND without calling courier_exchange_respond")
            }
            return .respond(answer)
        case COURIER_ACTION_FAIL:
            let failure =
                exchange.withLock { $0.failure }
                ?? CAPIFailure(COURIER_E_INTERCEPTOR, "failed without a message", stage: name)
            var error = CourierError(
                CAPIFailure.courierCode(for: failure.code), "\(name): \(failure.message)",
                source: name, request: exchange.request, response: exchange.response,
                underlying: InterceptorCode(code: failure.code))
            error.stage = name
            throw error
        case COURIER_ACTION_RETRY where exchange.phase == .response:
            return .retry
        case COURIER_ACTION_RETRY:
            throw misbehaved("returned COURIER_ACTION_RETRY outside on_response")
        default:
            throw misbehaved("returned \(action.rawValue), which is not a courier_action")
        }
    }

    package func misbehaved(_ what: String) -> CourierError { failure(.interceptorFailed, what) }

    /// An error this interceptor caused, naming it as source and stage (a run holds several).
    private func failure(_ code: CourierError.Code, _ what: String) -> CourierError {
        var error = CourierError(code, "\(name) \(what)", source: name)
        error.stage = name
        return error
    }

    /// Runs `around` on a Courier thread, where its blocking `proceed` can drain the executor;
    /// cancelling the send cancels what `proceed` waits for.
    private func interceptAround(
        _ around: courier_exchange_fn, _ request: Request, context: InterceptorContext,
        next: Next
    ) async throws -> Response {
        let executor = ThreadRole.drainingExecutor ?? CallbackPool.shared
        let exchange = ExchangeBox(
            phase: .around, request: request, response: nil, context: context,
            interceptorName: name, next: next, executor: executor)
        return try await withCancellationHandler {
            if ThreadRole.drainingExecutor != nil {
                return try runAround(around, exchange: exchange, timeout: request.timeout)
            }
            let box = UncheckedBox(self)
            let result: Result<Response, any Error> = await CallbackPool.shared.run {
                Result { try box.value.runAround(around, exchange: exchange, timeout: request.timeout) }
            }
            return try result.get()
        } onCancel: {
            exchange.cancelInner()
        }
    }

    private func runAround(_ around: courier_exchange_fn, exchange: ExchangeBox, timeout: Duration?) throws -> Response
    {
        defer { exchange.dispose() }
        var clock = MonotonicClock.now()
        switch try call(around, with: exchange, role: ThreadRole.current, timeout: timeout, clock: &clock) {
        case .continue:
            guard let response = exchange.response else {
                throw misbehaved(
                    "returned COURIER_ACTION_CONTINUE from around without a successful courier_exchange_proceed")
            }
            return response
        case .respond(let answer):
            return answer
        case .retry:
            throw misbehaved("returned COURIER_ACTION_RETRY from around; call courier_exchange_proceed again instead")
        }
    }
}

/// Carries a value the compiler cannot prove Sendable into a closure that runs once on another thread.
///
/// Unchecked `Sendable`: each use hands the value over, so only one thread holds it at a time.
package struct UncheckedBox<Value>: @unchecked Sendable {
    package let value: Value
    package init(_ value: Value) { self.value = value }
}
