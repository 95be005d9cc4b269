import Synchronization

/// The interceptors of one send and the terminal stage (redirects, then the transport) after them.
///
/// Built once per send; with the context's shared box (`InterceptorContext`) it is what the
/// pipeline allocates per send (more only when a request adds interceptors or the client adds
/// default headers). Each `Next` holds the chain and its own position, so passing through a stage
/// costs one call and no allocation.
final class InterceptorChain: Sendable {
    let interceptors: [any Interceptor]
    let transport: any Transport
    let configuration: Client.Configuration
    private let passes = Atomic(0)

    init(interceptors: [any Interceptor], transport: any Transport, configuration: Client.Configuration) {
        self.interceptors = interceptors
        self.transport = transport
        self.configuration = configuration
    }

    /// How many times this send has reached the terminal stage so far.
    var completedPasses: Int { passes.load(ordering: .relaxed) }

    /// Runs the stage at `index` and everything after it.
    ///
    /// A send in flight holds one frame of this function per interceptor, so what it keeps across
    /// the `await` is kept small: the terminal stage and the error's attribution are functions of
    /// their own (it was 1,072 bytes a stage with them inline).
    nonisolated(nonsending) func run(
        from index: Int, _ request: Request, context: InterceptorContext
    ) async throws -> Response {
        try Task.checkCancellation(request: request)
        guard index < interceptors.count else { return try await runTerminalStage(request) }
        let interceptor = interceptors[index]
        do {
            return try await interceptor.intercept(
                request, context: context, next: Next(chain: self, index: index + 1, context: context))
        } catch {
            throw Self.attributed(error, to: interceptor, request: request)
        }
    }

    /// Redirects, then the transport: the stage after the last interceptor.
    private nonisolated(nonsending) func runTerminalStage(_ request: Request) async throws -> Response {
        passes.add(1, ordering: .relaxed)
        return try await Client.followingRedirects(request, through: transport, configuration: configuration)
    }

    /// The error an interceptor threw, named for its stage: a `CourierError` gains the stage and
    /// request it lacks, and any other error is wrapped as `interceptorFailed`.
    private static func attributed(
        _ error: any Error, to interceptor: any Interceptor, request: Request
    ) -> CourierError {
        if let error = error as? CourierError { return error.filledIn(stage: interceptor.name, request: request) }
        var wrapped = CourierError(
            .interceptorFailed, "\(interceptor.name) failed: \(error)", source: interceptor.name,
            request: request, underlying: error)
        wrapped.stage = interceptor.name
        return wrapped
    }
}

extension Task where Success == Never, Failure == Never {
    /// Throws `CourierError.cancelled` when the current task is cancelled.
    static func checkCancellation(request: Request) throws {
        if Task.isCancelled {
            throw CourierError(.cancelled, "the request was cancelled", request: request)
        }
    }
}
