/// Calls `handler` with bytes sent so far and the total when known, as the body is uploaded.
///
/// It runs on the transport's thread: keep it short and do not block.
public struct OnUploadProgress: RequestBuildable, Sendable {
    let handler: @Sendable (_ sent: Int64, _ total: Int64?) -> Void

    /// Reports upload progress to `handler`.
    public init(_ handler: @escaping @Sendable (_ sent: Int64, _ total: Int64?) -> Void) { self.handler = handler }

    public func apply(to draft: inout RequestDraft) throws { draft.options[UploadProgressOption.self] = handler }
}

/// Called as the request body is sent; set with `OnUploadProgress`.
public enum UploadProgressOption: RequestOptionKey {
    public static let defaultValue: (@Sendable (_ sent: Int64, _ total: Int64?) -> Void)? = nil
}
