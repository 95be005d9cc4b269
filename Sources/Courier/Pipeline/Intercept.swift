/// Adds interceptors for this request only; they run inside the client's, in order.
public struct Intercept: RequestBuildable, Sendable {
    let interceptors: [any Interceptor]

    /// Adds `interceptors`, outermost first.
    public init(_ interceptors: any Interceptor...) { self.interceptors = interceptors }

    public func apply(to draft: inout RequestDraft) throws {
        draft.options[InterceptorsOption.self].append(contentsOf: interceptors)
    }
}

/// Interceptors that run for one request only, inside the client's; set with the `Intercept` block.
public enum InterceptorsOption: RequestOptionKey {
    public static let defaultValue: [any Interceptor] = []
}
