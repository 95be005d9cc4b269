import CCourier
import Courier
import Foundation

/// A C interceptor in the Swift chain: calls its callbacks with an exchange handle and turns the
/// action they return into what the chain does next.
///
/// `on_request` and `on_response` run inline on the thread running the send, so a C interceptor
/// that edits headers costs no thread hop. `around` blocks in `proceed`, so it runs on a Courier
/// thread: inline when the send already runs on one (a blocking send, an asynchronous send),
/// otherwise on the shared callback pool.
final class CInterceptor: Interceptor, @unchecked Sendable {
    let name: String
    private let onRequest: courier_exchange_fn?
    private let onResponse: courier_exchange_fn?
    private let around: courier_exchange_fn?
    private let userData: UnsafeMutableRawPointer?
    private let destroy: courier_destroy_fn?
    /// The timeout of requests that set none, to report a callback that ran past the deadline.
    private let defaultTimeout: Duration?

    /// The most times `on_response` may ask for a retry in one send.
    static let maxRetries = 8

    init(_ definition: courier_interceptor, defaultTimeout: Duration?, in function: StaticString) throws {
        guard definition.struct_size >= MemoryLayout<courier_interceptor>.size else {
            throw CAPIFailure.invalidArgument(
                "interceptor->struct_size is \(definition.struct_size); call courier_interceptor_init first", in: function)
        }
        name = try CInput.string(definition.name, "interceptor->name", in: function)
        guard !name.isEmpty else { throw CAPIFailure.invalidArgument("interceptor->name is empty", in: function) }
        if definition.around != nil, definition.on_request != nil || definition.on_response != nil {
            throw CAPIFailure.invalidArgument("interceptor \(name) sets around together with on_request or on_response",
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

    func intercept(_ request: Request, context: InterceptorContext, next: Next) async throws -> Response {
        if let around { return try await interceptAround(around, request, context: context, next: next) }
        var current = request
        if let onRequest {
            let exchange = ExchangeBox(phase: .request, request: current, response: nil, context: context,
                                       interceptorName: name)
            switch try call(onRequest, with: exchange, deadlineOf: current) {
            case .continue: current = exchange.request
            case .respond(let response): return response
            case .retry: throw misbehaved("returned COURIER_ACTION_RETRY from on_request")
            }
        }
        guard let onResponse else { return try await next(current) }
        var retries = 0
        while true {
            let response = try await next(current).collectingBody(upTo: context.limits.maxBodyBytes)
            var passContext = context
            passContext.attempt = context.attempt + retries
            let exchange = ExchangeBox(phase: .response, request: current, response: response, context: passContext,
                                       interceptorName: name)
            switch try call(onResponse, with: exchange, deadlineOf: current) {
            case .continue: return exchange.response ?? response
            case .respond(let answer): return answer
            case .retry:
                retries += 1
                guard retries <= Self.maxRetries else {
                    throw misbehaved("asked for more than \(Self.maxRetries) retries in one send")
                }
                current = exchange.request
            }
        }
    }

    private enum Outcome {
        case `continue`
        case respond(Response)
        case retry
    }

    /// Calls `callback` with a handle to `exchange`, revokes the handle, and reads the action.
    private func call(_ callback: courier_exchange_fn, with exchange: ExchangeBox, deadlineOf request: Request) throws -> Outcome {
        guard let handle = HandleRegistry.shared.register(exchange) else {
            throw CourierError(.interceptorFailed, "too many live handles", source: name)
        }
        let started = ContinuousClock.now
        let action = ThreadRole.inCallback { callback(userData, handle) }
        let elapsed = ContinuousClock.now - started
        exchange.revoke(handle)
        if let timeout = request.timeout ?? defaultTimeout, elapsed > timeout {
            throw CourierError(.timedOut, "\(name) took \(elapsed.formatted()) in a callback, past the request's timeout of \(timeout.formatted())",
                               source: name, request: request)
        }
        return try outcome(of: action, exchange: exchange, request: request)
    }

    private func outcome(of action: courier_action, exchange: ExchangeBox, request: Request) throws -> Outcome {
        switch action {
        case COURIER_ACTION_CONTINUE:
            return .continue
        case COURIER_ACTION_RESPOND:
            guard var answer = exchange.withLock({ $0.answer }) else {
                throw misbehaved("returned COURIER_ACTION_RESPOND without calling courier_exchange_respond")
            }
            answer.request = exchange.request
            return .respond(answer)
        case COURIER_ACTION_FAIL:
            let failure = exchange.withLock { $0.failure }
                ?? CAPIFailure(COURIER_E_INTERCEPTOR, "failed without a message", stage: name)
            var error = CourierError(CAPIFailure.courierCode(for: failure.code), "\(name): \(failure.message)",
                                     source: name, request: request, response: exchange.response,
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

    private func misbehaved(_ what: String) -> CourierError {
        var error = CourierError(.interceptorFailed, "\(name) \(what)", source: name)
        error.stage = name
        return error
    }

    /// Runs `around` on a Courier thread, where its blocking `proceed` can drain the executor;
    /// cancelling the send cancels what `proceed` waits for.
    private func interceptAround(_ around: courier_exchange_fn, _ request: Request, context: InterceptorContext,
                                 next: Next) async throws -> Response {
        let executor = ThreadRole.drainingExecutor ?? CallbackPool.shared
        let exchange = ExchangeBox(phase: .around, request: request, response: nil, context: context,
                                   interceptorName: name, next: next, executor: executor)
        return try await withTaskCancellationHandler {
            if ThreadRole.drainingExecutor != nil {
                return try runAround(around, exchange: exchange, request: request)
            }
            let box = UncheckedBox(self)
            let result: Result<Response, any Error> = await CallbackPool.shared.run {
                Result { try box.value.runAround(around, exchange: exchange, request: request) }
            }
            return try result.get()
        } onCancel: {
            exchange.cancelInner()
        }
    }

    private func runAround(_ around: courier_exchange_fn, exchange: ExchangeBox, request: Request) throws -> Response {
        switch try call(around, with: exchange, deadlineOf: request) {
        case .continue:
            guard let response = exchange.response else {
                throw misbehaved("returned COURIER_ACTION_CONTINUE from around without a successful courier_exchange_proceed")
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
struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
