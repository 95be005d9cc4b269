/// Calls `handler` with bytes received so far and the total when known, as the body downloads.
///
/// It runs on the transport's thread: keep it short and do not block.
public struct OnDownloadProgress: RequestBuildable, Sendable {
    let handler: @Sendable (_ received: Int64, _ total: Int64?) -> Void

    /// Reports download progress to `handler`.
    public init(_ handler: @escaping @Sendable (_ received: Int64, _ total: Int64?) -> Void) { self.handler = handler }

    public func apply(to draft: inout RequestDraft) throws { draft.options[DownloadProgressOption.self] = handler }
}

/// Called as the response body arrives; set with `OnDownloadProgress`.
public enum DownloadProgressOption: RequestOptionKey {
    public static let defaultValue: (@Sendable (_ received: Int64, _ total: Int64?) -> Void)? = nil
}
