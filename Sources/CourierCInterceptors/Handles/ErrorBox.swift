package import CCourier

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What a `courier_error` handle names: a code, a message and a stage, fixed at creation.
///
/// Unchecked `Sendable` for its C strings: written once in `init`, only read after, freed in `deinit`.
package final class ErrorBox: HandleObject, @unchecked Sendable {
    package static let handleKind = HandleKind.error

    package let code: courier_code
    package let status: Int
    package let message: UnsafeMutablePointer<CChar>
    package let stage: UnsafeMutablePointer<CChar>?

    package init(_ failure: CAPIFailure) {
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
    package static func register(_ failure: CAPIFailure) -> OpaquePointer? {
        HandleRegistry.shared.register(ErrorBox(failure))
    }
}
