public import Logging

/// A stage of the request pipeline, wrapped around everything after it.
///
/// An interceptor receives the request and `next`, the rest of the chain. It may:
/// - change the request and pass it on: `try await next(modified)`;
/// - answer on its own without calling `next` (a cache hit, a mock);
/// - call `next` more than once (a retry), discarding the responses it does not return;
/// - change the response, or throw.
///
/// Interceptors run in registration order: the first registered is outermost, sees the request
/// first and the response last. The client's interceptors run before the request's own.
///
/// Contract: `intercept` runs on the caller's executor (`nonisolated(nonsending)`), so awaiting
/// `next` costs no thread hop; it must not block that thread. Write your implementation as
/// `nonisolated(nonsending) func intercept(…)`, or build with the `NonisolatedNonsendingByDefault`
/// upcoming feature: a plain `async` method would run on the global pool and hop on every send. A response from `next` usually
/// has its body still streaming (`Response.isStreaming`): return it as it is, or call
/// `collectingBody(upTo:)` to read it, or `bodyStream?.discard()` before dropping it.
/// An error an interceptor throws is attributed to it (`CourierError.stage`); errors it lets
/// pass from `next` keep their original stage.
///
/// Memory: while a send is in flight it holds the async frame of every `intercept` it waits in,
/// and a frame keeps room for every value the function makes, not only those it needs after
/// `next`. Do the work before and after `next` (formatting, logging, building errors) in
/// synchronous functions, as the built-in interceptors do: a stage then costs a few hundred bytes
/// per send in flight instead of a few kilobytes (`Benchmarks/scripts/async-frames.py` prints a
/// binary's frame sizes).
public protocol Interceptor: Sendable {
    /// The name used in errors and logs; the type name by default.
    var name: String { get }

    /// Handles `request` by calling `next` zero or more times, or by answering on its own.
    nonisolated(nonsending) func intercept(
        _ request: Request, context: InterceptorContext, next: Next
    ) async throws -> Response
}

extension Interceptor {
    public var name: String { String(describing: Self.self) }
}

/// What an interceptor knows about the exchange besides the request.
///
/// Copied into every stage of every send, so it is one reference and an integer: the parts that
/// do not change during a send live in a shared, immutable box.
public struct InterceptorContext: Sendable {
    /// The parts of a context that stay the same for the whole send.
    private final class Shared: Sendable {
        let requestID: RequestID
        let logger: Logger
        let limits: Limits
        let transport: (any Transport)?

        init(requestID: RequestID, logger: Logger, limits: Limits, transport: (any Transport)?) {
            self.requestID = requestID
            self.logger = logger
            self.limits = limits
            self.transport = transport
        }
    }

    private var shared: Shared

    /// Which pass of this send is under way, from 1: each time the request travels down to the
    /// transport again (a retry, an auth refresh), the stages it passes see the next number.
    public var attempt: Int

    /// An identifier unique to this `send`, shared by every attempt and stage.
    public var requestID: String {
        get { shared.requestID.text }
        set {
            shared = Shared(
                requestID: .named(newValue), logger: shared.logger, limits: shared.limits, transport: shared.transport)
        }
    }

    /// The client's logger.
    public var logger: Logger {
        get { shared.logger }
        set {
            shared = Shared(
                requestID: shared.requestID, logger: newValue, limits: shared.limits, transport: shared.transport)
        }
    }

    /// The bounds the client enforces.
    public var limits: Limits {
        get { shared.limits }
        set {
            shared = Shared(
                requestID: shared.requestID, logger: shared.logger, limits: newValue, transport: shared.transport)
        }
    }

    /// The transport the client sends through (to read what it was set up to do, such as
    /// ``Transport/disabledSecurityChecks``); `nil` in a context made for testing.
    public var transport: (any Transport)? { shared.transport }

    /// Creates a context, for testing interceptors in isolation.
    public init(
        attempt: Int = 1, requestID: String = "test", logger: Logger = Logger(label: "courier"),
        limits: Limits = Limits()
    ) {
        self.init(attempt: attempt, requestID: .named(requestID), logger: logger, limits: limits)
    }

    /// A context whose identifier is `requestID`: a client's counted one is spelled only when read.
    init(attempt: Int, requestID: RequestID, logger: Logger, limits: Limits, transport: (any Transport)? = nil) {
        self.attempt = attempt
        self.shared = Shared(requestID: requestID, logger: logger, limits: limits, transport: transport)
    }
}

/// The rest of the chain after an interceptor: call it to pass the request on.
public struct Next: Sendable {
    private let chain: InterceptorChain
    private let index: Int
    private let context: InterceptorContext

    init(chain: InterceptorChain, index: Int, context: InterceptorContext) {
        self.chain = chain
        self.index = index
        self.context = context
    }

    /// The attempt the remaining stages see when called now: one more than the passes that
    /// reached the transport so far. For stages that run several interceptors in one.
    package var attempt: Int { chain.completedPasses + 1 }

    /// Sends `request` through the remaining stages and returns their response.
    public nonisolated(nonsending) func callAsFunction(_ request: Request) async throws -> Response {
        var context = self.context
        context.attempt = attempt
        return try await chain.run(from: index, request, context: context)
    }
}

/// An interceptor from a closure, for one-off use:
/// `ClosureInterceptor("stamp") { request, context, next in try await next(request) }`.
public struct ClosureInterceptor: Interceptor {
    public let name: String
    private let body: nonisolated(nonsending) @Sendable (Request, InterceptorContext, Next) async throws -> Response

    /// Creates an interceptor named `name` that runs `body`.
    public init(
        _ name: String = "closure",
        _ body: nonisolated(nonsending) @escaping @Sendable (Request, InterceptorContext, Next) async throws -> Response
    ) {
        self.name = name
        self.body = body
    }

    public nonisolated(nonsending) func intercept(
        _ request: Request, context: InterceptorContext, next: Next
    ) async throws -> Response {
        try await body(request, context, next)
    }
}
