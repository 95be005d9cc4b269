/// `withTaskCancellationHandler`, with `operation` run on the caller's executor.
///
/// In a `nonisolated(nonsending)` function, the closure literal handed to the standard
/// `withTaskCancellationHandler` is inferred `@concurrent`: called from an actor (the main actor
/// of an app, or any other), every send hopped to the global executor to start its wait and back
/// to the actor when it ended, two thread handoffs a request that the caller never asked for. Here
/// the closure captures the caller's `isolated` parameter, which makes it isolated to the caller,
/// and `operation`, nonsending like every async closure in this package, runs there too.
///
/// - Parameters:
///   - isolation: the caller's actor, or `nil` when it has none; leave it to `#isolation`.
///   - operation: the work to run, on the caller's executor.
///   - handler: called once, on whichever thread cancels the task, if it is cancelled.
package func withCancellationHandler<Result>(
    isolation: isolated (any Actor)? = #isolation,
    operation: () async throws -> Result,
    onCancel handler: @Sendable () -> Void
) async rethrows -> Result {
    try await withTaskCancellationHandler(
        operation: {
            _ = isolation
            return try await operation()
        },
        onCancel: handler)
}
