package import Courier

/// Consecutive C interceptors with `on_request`/`on_response` callbacks, run as one stage of the
/// chain.
///
/// The callbacks run in a plain loop that shares one exchange, so each one costs a C call and a
/// handle renewal instead of an async step through the chain and a new exchange. The order and
/// the actions are those of separate interceptors: `on_request` callbacks in order, the rest of
/// the chain, then `on_response` callbacks in reverse; a RESPOND skips the callbacks after it
/// and its own `on_response`; a RETRY from `on_response` sends its request through the members
/// after it and the rest of the chain again.
package final class CInterceptorRun: Interceptor, Sendable {
    package let members: [CInterceptor]
    package let name: String

    package init(members: [CInterceptor]) {
        assert(!members.isEmpty && !members.contains(where: \.wrapsChain), "a run holds inline C interceptors only")
        self.members = members
        name = members.map(\.name).joined(separator: " + ")
    }

    /// `interceptors` with each stretch of consecutive inline C interceptors made one run.
    package static func fusing(_ interceptors: [any Interceptor]) -> [any Interceptor] {
        var chain: [any Interceptor] = []
        var stretch: [CInterceptor] = []
        for interceptor in interceptors {
            if let member = interceptor as? CInterceptor, !member.wrapsChain {
                stretch.append(member)
                continue
            }
            if !stretch.isEmpty { chain.append(CInterceptorRun(members: stretch)) }
            stretch = []
            chain.append(interceptor)
        }
        if !stretch.isEmpty { chain.append(CInterceptorRun(members: stretch)) }
        return chain
    }

    package func intercept(_ request: Request, context: InterceptorContext, next: Next) async throws -> Response {
        try await pass(request, from: 0, context: context, next: next)
    }

    /// Sends `request` through `members[first...]` and then `next`.
    private func pass(
        _ request: Request, from first: Int, context: InterceptorContext,
        next: Next
    ) async throws -> Response {
        let exchange = ExchangeBox(
            phase: .request, request: request, response: nil, context: context,
            interceptorName: members[first].name)
        defer { exchange.dispose() }
        let role = ThreadRole.current
        // A timeout a callback sets applies to the stages after this run, not to the deadline
        // its own callbacks are held to.
        let timeout = request.timeout
        // What the chain would give each member as its context's attempt: a pass that a retry
        // starts counts the passes completed before it.
        let attempt = next.attempt
        var clock = MonotonicClock.now()
        var answer: Response?
        // The members whose on_response will run, each with the request it passed on.
        var passedOn: [(member: Int, request: Request)] = []
        requestPhase: for index in first..<members.count {
            let member = members[index]
            if let onRequest = member.onRequest {
                exchange.enterRequestPhase(of: member.name, attempt: attempt)
                switch try member.call(onRequest, with: exchange, role: role, timeout: timeout, clock: &clock) {
                case .continue: break
                case .respond(let answered):
                    answer = answered
                    break requestPhase
                case .retry: throw member.misbehaved("returned COURIER_ACTION_RETRY from on_request")
                }
            }
            if member.onResponse != nil { passedOn.append((index, exchange.request)) }
        }
        var response = if let answer { answer } else { try await next(exchange.request) }
        for (index, passed) in passedOn.reversed() {
            response = try await respond(
                with: members[index], index: index, to: passed, response: response,
                attempt: attempt, exchange: exchange, context: context, next: next)
        }
        return response
    }

    /// Runs `member`'s `on_response` on `response`, retrying as often as it asks; each retry
    /// counts one more `attempt`, as `courier_exchange_attempt` documents.
    private func respond(
        with member: CInterceptor, index: Int, to request: Request, response: Response,
        attempt: Int, exchange: ExchangeBox, context: InterceptorContext,
        next: Next
    ) async throws -> Response {
        guard let onResponse = member.onResponse else { return response }
        var request = request
        var response = response
        var retries = 0
        while true {
            response = try await response.collectingBody(upTo: context.limits.maxBodyBytes)
            exchange.enterResponsePhase(
                of: member.name, attempt: attempt + retries, request: request,
                response: response)
            var clock = MonotonicClock.now()
            switch try member.call(
                onResponse, with: exchange, role: ThreadRole.current, timeout: request.timeout,
                clock: &clock)
            {
            case .continue: return exchange.response ?? response
            case .respond(let answer): return answer
            case .retry:
                retries += 1
                guard retries <= CInterceptor.maxRetries else {
                    throw member.misbehaved("asked for more than \(CInterceptor.maxRetries) retries in one send")
                }
                request = exchange.request
                response =
                    index + 1 < members.count
                    ? try await pass(request, from: index + 1, context: context, next: next)
                    : try await next(request)
            }
        }
    }
}
