import CCourier

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What a `courier_error` handle names: a code, a message and a stage, fixed at creation.
final class ErrorBox: HandleObject, @unchecked Sendable {
    static let handleKind = HandleKind.error

    let code: courier_code
    let status: Int
    let message: UnsafeMutablePointer<CChar>
    let stage: UnsafeMutablePointer<CChar>?

    init(_ failure: CAPIFailure) {
        code = failure.code
        status = failure.status
        message = strdup(failure.message) ?? strdup("")!
        stage = failure.stage.flatMap { strdup($0) }
    }

    deinit {
        free(message)
        free(stage)
    }

    /// A new handle for `failure`; `nil` only when no handle can be made.
    static func register(_ failure: CAPIFailure) -> OpaquePointer? {
        HandleRegistry.shared.register(ErrorBox(failure))
    }
}
