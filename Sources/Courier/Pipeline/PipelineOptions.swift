/// Interceptors that run for one request only, inside the client's; set with the `Intercept` block.
public enum InterceptorsOption: RequestOptionKey {
    public static let defaultValue: [any Interceptor] = []
}

/// Called as the request body is sent; set with `OnUploadProgress`.
public enum UploadProgressOption: RequestOptionKey {
    public static let defaultValue: (@Sendable (_ sent: Int64, _ total: Int64?) -> Void)? = nil
}

/// Called as the response body arrives; set with `OnDownloadProgress`.
public enum DownloadProgressOption: RequestOptionKey {
    public static let defaultValue: (@Sendable (_ received: Int64, _ total: Int64?) -> Void)? = nil
}

/// Adds interceptors for this request only; they run inside the client's, in order.
public struct Intercept: RequestBuildable, Sendable {
    let interceptors: [any Interceptor]

    /// Adds `interceptors`, outermost first.
    public init(_ interceptors: any Interceptor...) { self.interceptors = interceptors }

    public func apply(to draft: inout RequestDraft) throws {
        draft.options[InterceptorsOption.self].append(contentsOf: interceptors)
    }
}

/// Calls `handler` with bytes sent so far and the total when known, as the body is uploaded.
///
/// It runs on the transport's thread: keep it short and do not block.
public struct OnUploadProgress: RequestBuildable, Sendable {
    let handler: @Sendable (_ sent: Int64, _ total: Int64?) -> Void

    /// Reports upload progress to `handler`.
    public init(_ handler: @escaping @Sendable (_ sent: Int64, _ total: Int64?) -> Void) { self.handler = handler }

    public func apply(to draft: inout RequestDraft) throws { draft.options[UploadProgressOption.self] = handler }
}

/// Calls `handler` with bytes received so far and the total when known, as the body downloads.
///
/// It runs on the transport's thread: keep it short and do not block.
public struct OnDownloadProgress: RequestBuildable, Sendable {
    let handler: @Sendable (_ received: Int64, _ total: Int64?) -> Void

    /// Reports download progress to `handler`.
    public init(_ handler: @escaping @Sendable (_ received: Int64, _ total: Int64?) -> Void) { self.handler = handler }

    public func apply(to draft: inout RequestDraft) throws { draft.options[DownloadProgressOption.self] = handler }
}
