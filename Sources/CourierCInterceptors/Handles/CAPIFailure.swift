package import CCourier
package import Courier
package import HTTPTypes

/// A failure on its way out to C: the code to return and what the error object will say.
package struct CAPIFailure: Error {
    package var code: courier_code
    package var message: String
    package var stage: String?
    package var status: Int = 0

    package init(_ code: courier_code, _ message: String, stage: String? = nil, status: Int = 0) {
        self.code = code
        self.message = cNames(in: TerminalSafeText.escaping(message))
        self.stage = stage
        self.status = status
    }

    /// The failure `function: detail`, the shape of every message that names the exported function.
    package init(_ code: courier_code, in function: String, detail: String) {
        self.init(code, "\(function): \(detail)")
    }

    package init(_ code: courier_code, in function: StaticString = #function, detail: String) {
        self.init(code, in: "\(function)", detail: detail)
    }

    package static func invalidHandle(_ kind: String, in function: String) -> CAPIFailure {
        CAPIFailure(
            COURIER_E_INVALID_HANDLE, in: function, detail: "the \(kind) handle is NULL, freed, or not a \(kind)")
    }

    package static func invalidArgument(_ message: String, in function: String) -> CAPIFailure {
        CAPIFailure(COURIER_E_INVALID_ARGUMENT, in: function, detail: message)
    }

    package static func invalidArgument(_ message: String, in function: StaticString = #function) -> CAPIFailure {
        invalidArgument(message, in: "\(function)")
    }

    package static func invalidHandle(_ kind: String, in function: StaticString = #function) -> CAPIFailure {
        invalidHandle(kind, in: "\(function)")
    }

    /// The failure for an error the Swift core threw, keeping a C interceptor's own code when it
    /// set one.
    package init(_ error: any Error, in function: String) {
        switch error {
        case let failure as CAPIFailure:
            self = failure
        case let error as CourierError:
            let code = (error.underlying as? InterceptorCode)?.code ?? Self.code(for: error.code)
            self.init(code, error.message, stage: error.stage, status: error.response.map { $0.status.code } ?? 0)
            if let source = error.source, source != error.stage, !message.hasPrefix(source) {
                message = cNames(in: "\(source): \(message)")
            }
        default:
            self.init(COURIER_E_INTERNAL, in: function, detail: "\(error)")
        }
    }

    /// The C twin of each Swift code: a switch over the closed `Kind`, so a code added in Swift
    /// does not compile until it has its own `courier_code`.
    package static func code(for code: CourierError.Code) -> courier_code {
        switch code.kind {
        case .invalidRequest: COURIER_E_INVALID_REQUEST
        case .encodingFailed: COURIER_E_ENCODING
        case .bodyNotReplayable: COURIER_E_BODY_NOT_REPLAYABLE
        case .cannotConnect: COURIER_E_CANNOT_CONNECT
        case .timedOut: COURIER_E_TIMED_OUT
        case .cancelled: COURIER_E_CANCELLED
        case .insecureConnection: COURIER_E_INSECURE
        case .invalidResponse: COURIER_E_INVALID_RESPONSE
        case .unacceptableStatus: COURIER_E_UNACCEPTABLE_STATUS
        case .unacceptableContentType: COURIER_E_UNACCEPTABLE_CONTENT_TYPE
        case .decodingFailed: COURIER_E_DECODING
        case .limitExceeded: COURIER_E_LIMIT_EXCEEDED
        case .tooManyRedirects: COURIER_E_TOO_MANY_REDIRECTS
        case .authenticationFailed: COURIER_E_AUTHENTICATION
        case .interceptorFailed: COURIER_E_INTERCEPTOR
        case .pluginFailed: COURIER_E_PLUGIN
        case .usedAfterFork: COURIER_E_FORKED
        // An error that was not Courier's, as a failure outside any CourierError is.
        case .unknown: COURIER_E_INTERNAL
        }
    }

    /// The Swift code closest to a C code, for errors C interceptors raise.
    package static func courierCode(for code: courier_code) -> CourierError.Code {
        switch code {
        case COURIER_E_INVALID_REQUEST: .invalidRequest
        case COURIER_E_ENCODING: .encodingFailed
        case COURIER_E_BODY_NOT_REPLAYABLE: .bodyNotReplayable
        case COURIER_E_CANNOT_CONNECT: .cannotConnect
        case COURIER_E_TIMED_OUT: .timedOut
        case COURIER_E_CANCELLED: .cancelled
        case COURIER_E_INSECURE: .insecureConnection
        case COURIER_E_INVALID_RESPONSE: .invalidResponse
        case COURIER_E_UNACCEPTABLE_STATUS: .unacceptableStatus
        case COURIER_E_UNACCEPTABLE_CONTENT_TYPE: .unacceptableContentType
        case COURIER_E_DECODING: .decodingFailed
        case COURIER_E_LIMIT_EXCEEDED: .limitExceeded
        case COURIER_E_TOO_MANY_REDIRECTS: .tooManyRedirects
        case COURIER_E_AUTHENTICATION: .authenticationFailed
        case COURIER_E_PLUGIN: .pluginFailed
        case COURIER_E_FORKED: .usedAfterFork
        default: .interceptorFailed
        }
    }
}

/// The C code a C interceptor failed with, carried through the Swift pipeline so the C caller
/// sees the code the interceptor chose.
package struct InterceptorCode: Error, Sendable, CustomStringConvertible {
    package let code: courier_code
    package var description: String { String(cString: courier_strerror(code)) }
}

/// Runs the body of an exported function: returns `COURIER_OK`, or the failure's code after
/// storing a new error object in `*error` when the caller asked for one.
@inline(__always)
package func reporting(
    _ errorOut: UnsafeMutablePointer<OpaquePointer?>?, _ function: StaticString = #function,
    _ body: () throws -> Void
) -> courier_code {
    do {
        try body()
        return COURIER_OK
    } catch {
        let failure = CAPIFailure(error, in: "\(function)")
        if let errorOut { errorOut.pointee = ErrorBox.register(failure) }
        return failure.code
    }
}
