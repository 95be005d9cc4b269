public import CCourier
package import Courier

@c @implementation
public func courier_strerror(_ code: courier_code) -> UnsafePointer<CChar>! {
    staticCString(description(of: code))
}

/// The text `courier_strerror` returns for `code`.
private func description(of code: courier_code) -> StaticString {
    switch code {
    case COURIER_OK: "ok"
    case COURIER_E_INVALID_ARGUMENT: "invalid argument"
    case COURIER_E_INVALID_HANDLE: "invalid handle"
    case COURIER_E_INVALID_REQUEST: "invalid request"
    case COURIER_E_ENCODING: "body encoding failed"
    case COURIER_E_BODY_NOT_REPLAYABLE: "body cannot be replayed"
    case COURIER_E_CANNOT_CONNECT: "cannot connect"
    case COURIER_E_TIMED_OUT: "timed out"
    case COURIER_E_CANCELLED: "cancelled"
    case COURIER_E_INSECURE: "insecure connection"
    case COURIER_E_INVALID_RESPONSE: "invalid response"
    case COURIER_E_UNACCEPTABLE_STATUS: "unacceptable status"
    case COURIER_E_LIMIT_EXCEEDED: "limit exceeded"
    case COURIER_E_TOO_MANY_REDIRECTS: "too many redirects"
    case COURIER_E_INTERCEPTOR: "interceptor failed"
    case COURIER_E_PLUGIN: "plugin failed"
    case COURIER_E_WOULD_BLOCK: "call would block a callback thread"
    case COURIER_E_NOT_FOUND: "not found"
    case COURIER_E_UNSUPPORTED: "unsupported operation"
    case COURIER_E_INTERNAL: "internal error"
    case COURIER_E_UNACCEPTABLE_CONTENT_TYPE: "unacceptable content type"
    case COURIER_E_DECODING: "decoding failed"
    case COURIER_E_AUTHENTICATION: "authentication failed"
    case COURIER_E_FORKED: "used in a process made by fork after it was created"
    default: "unknown error code"
    }
}

@c @implementation
public func courier_error_code(_ error: OpaquePointer?) -> courier_code {
    HandleRegistry.shared.object(error, as: ErrorBox.self)?.code ?? COURIER_E_INVALID_HANDLE
}

@c @implementation
public func courier_error_message(_ error: OpaquePointer?) -> UnsafePointer<CChar>! {
    guard let box = HandleRegistry.shared.object(error, as: ErrorBox.self) else {
        return staticCString("courier_error_message: the error handle is NULL, freed, or not an error")
    }
    return UnsafePointer(box.message)
}

@c @implementation
public func courier_error_stage(_ error: OpaquePointer?) -> UnsafePointer<CChar>? {
    HandleRegistry.shared.object(error, as: ErrorBox.self)?.stage.map { UnsafePointer($0) }
}

@c @implementation
public func courier_error_status(_ error: OpaquePointer?) -> Int32 {
    Int32(clamping: HandleRegistry.shared.object(error, as: ErrorBox.self)?.status ?? 0)
}

@c @implementation
public func courier_error_free(_ error: OpaquePointer?) -> courier_code {
    guard let error else { return COURIER_OK }
    return HandleRegistry.shared.remove(error, as: ErrorBox.self) == nil ? COURIER_E_INVALID_HANDLE : COURIER_OK
}

@c @implementation
public func courier_abi_version() -> UInt32 {
    UInt32(COURIER_ABI_MAJOR) << 16 | UInt32(COURIER_ABI_MINOR)
}

@c @implementation
public func courier_version() -> UnsafePointer<CChar>! {
    staticCString(CourierVersion.string)
}

/// A C view of a string literal, which lives for the whole run.
package func staticCString(_ string: StaticString) -> UnsafePointer<CChar> {
    UnsafeRawPointer(string.utf8Start).assumingMemoryBound(to: CChar.self)
}

/// The release version, kept in one place for `courier_version()` and the plugin host table.
package enum CourierVersion {
    package static let string: StaticString = "0.2.0"
}
