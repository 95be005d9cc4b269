public import CCourier
package import Courier
package import HTTPTypes

#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif

@c @implementation
public func courier_request_new(
    _ method: UnsafePointer<CChar>?, _ url: UnsafePointer<CChar>?,
    _ request: UnsafeMutablePointer<OpaquePointer?>?,
    _ error: UnsafeMutablePointer<OpaquePointer?>?
) -> courier_code {
    reporting(error) {
        let method = try CInput.string(method, "method")
        let url = try CInput.string(url, "url")
        guard let request else { throw CAPIFailure.invalidArgument("request is NULL") }
        let built = try Request {
            Method.custom(method)
            BaseURL(url)
        }
        request.pointee = try register(RequestBox(built))
    }
}

@c @implementation
public func courier_request_new_endpoint(
    _ method: UnsafePointer<CChar>?, _ baseURL: UnsafePointer<CChar>?,
    _ endpoint: UnsafePointer<CChar>?,
    _ request: UnsafeMutablePointer<OpaquePointer?>?,
    _ error: UnsafeMutablePointer<OpaquePointer?>?
) -> courier_code {
    reporting(error) {
        let method = try CInput.string(method, "method")
        let baseURL = try CInput.string(baseURL, "base_url")
        let endpoint = try CInput.string(endpoint, "endpoint")
        guard let request else { throw CAPIFailure.invalidArgument("request is NULL") }
        let built = try Request {
            Method.custom(method)
            BaseURL(baseURL)
            Endpoint(endpoint)
        }
        request.pointee = try register(RequestBox(built))
    }
}

@c @implementation
public func courier_request_clone(
    _ request: OpaquePointer?, _ clone: UnsafeMutablePointer<OpaquePointer?>?,
    _ error: UnsafeMutablePointer<OpaquePointer?>?
) -> courier_code {
    reporting(error) {
        let box = try requestBox(request)
        guard let clone else { throw CAPIFailure.invalidArgument("clone is NULL") }
        let copy = box.withLock { $0.withoutBorrowed }
        let cloned = RequestBox(copy.request)
        cloned.withLock { $0 = copy }
        clone.pointee = try register(cloned)
    }
}

@c @implementation
public func courier_request_free(_ request: OpaquePointer?) -> courier_code {
    guard let request else { return COURIER_OK }
    return HandleRegistry.shared.remove(request, as: RequestBox.self) == nil ? COURIER_E_INVALID_HANDLE : COURIER_OK
}

@c @implementation
public func courier_request_set_method(
    _ request: OpaquePointer?, _ method: UnsafePointer<CChar>?,
    _ error: UnsafeMutablePointer<OpaquePointer?>?
) -> courier_code {
    reporting(error) {
        let box = try requestBox(request)
        let method = try CInput.string(method, "method")
        try box.update { Method.custom(method) }
    }
}

@c @implementation
public func courier_request_set_url(
    _ request: OpaquePointer?, _ url: UnsafePointer<CChar>?,
    _ error: UnsafeMutablePointer<OpaquePointer?>?
) -> courier_code {
    reporting(error) {
        let box = try requestBox(request)
        let url = try CInput.string(url, "url")
        // Validated as courier_request_new validates it, before anything changes.
        let validated = try Request { BaseURL(url) }.url
        box.edit { state in state.request.url = validated }
    }
}

@c @implementation
public func courier_request_add_query(
    _ request: OpaquePointer?, _ name: UnsafePointer<CChar>?,
    _ value: UnsafePointer<CChar>?,
    _ error: UnsafeMutablePointer<OpaquePointer?>?
) -> courier_code {
    reporting(error) {
        let box = try requestBox(request)
        let name = try CInput.string(name, "name")
        let value = try CInput.optionalString(value, "value")
        try box.update {
            if let value { Query(name, value) } else { Query(flag: name) }
        }
    }
}

@c @implementation
public func courier_request_set_header(
    _ request: OpaquePointer?, _ name: UnsafePointer<CChar>?,
    _ value: UnsafePointer<CChar>?,
    _ error: UnsafeMutablePointer<OpaquePointer?>?
) -> courier_code {
    reporting(error) {
        let box = try requestBox(request)
        let field = try HeaderEditing.field(name, value)
        box.edit { state in HeaderEditing.set(field.name, field.value, in: &state.request.headerFields) }
    }
}

@c @implementation
public func courier_request_add_header(
    _ request: OpaquePointer?, _ name: UnsafePointer<CChar>?,
    _ value: UnsafePointer<CChar>?,
    _ error: UnsafeMutablePointer<OpaquePointer?>?
) -> courier_code {
    reporting(error) {
        let box = try requestBox(request)
        let field = try HeaderEditing.field(name, value)
        box.edit { state in state.request.headerFields.append(HTTPField(name: field.name, value: field.value)) }
    }
}

@c @implementation
public func courier_request_remove_header(
    _ request: OpaquePointer?, _ name: UnsafePointer<CChar>?,
    _ error: UnsafeMutablePointer<OpaquePointer?>?
) -> courier_code {
    reporting(error) {
        let box = try requestBox(request)
        let name = try CInput.string(name, "name")
        try box.edit { state in
            try HeaderEditing.remove(name, from: &state.request.headerFields)
        }
    }
}

@c @implementation
public func courier_request_add_cookie(
    _ request: OpaquePointer?, _ name: UnsafePointer<CChar>?,
    _ value: UnsafePointer<CChar>?,
    _ error: UnsafeMutablePointer<OpaquePointer?>?
) -> courier_code {
    reporting(error) {
        let box = try requestBox(request)
        let name = try CInput.string(name, "name")
        let value = try CInput.string(value, "value")
        try box.update { Cookie(name, value) }
    }
}

@c @implementation
public func courier_request_set_bearer_auth(
    _ request: OpaquePointer?, _ token: UnsafePointer<CChar>?,
    _ error: UnsafeMutablePointer<OpaquePointer?>?
) -> courier_code {
    reporting(error) {
        let box = try requestBox(request)
        let token = try CInput.string(token, "token")
        try box.update { Authorization.bearer(token) }
    }
}

@c @implementation
public func courier_request_set_basic_auth(
    _ request: OpaquePointer?, _ username: UnsafePointer<CChar>?,
    _ password: UnsafePointer<CChar>?,
    _ error: UnsafeMutablePointer<OpaquePointer?>?
) -> courier_code {
    reporting(error) {
        let box = try requestBox(request)
        let username = try CInput.string(username, "username")
        let password = try CInput.string(password, "password")
        try box.update { Authorization.basic(username: username, password: password) }
    }
}

@c @implementation
public func courier_request_set_timeout_ms(
    _ request: OpaquePointer?, _ milliseconds: Int64,
    _ error: UnsafeMutablePointer<OpaquePointer?>?
) -> courier_code {
    reporting(error) {
        let box = try requestBox(request)
        guard milliseconds >= 0 else { throw CAPIFailure.invalidArgument("milliseconds is negative") }
        box.edit { state in state.request.timeout = milliseconds == 0 ? nil : .milliseconds(milliseconds) }
    }
}

/// Looks up a request handle or fails naming the function.
package func requestBox(_ handle: OpaquePointer?, in function: StaticString = #function) throws -> RequestBox {
    guard let box = HandleRegistry.shared.object(handle, as: RequestBox.self) else {
        throw CAPIFailure.invalidHandle("request", in: function)
    }
    return box
}

/// Registers `object`, failing when no handle is left.
package func register(_ object: some HandleObject, in function: StaticString = #function) throws -> OpaquePointer {
    guard let handle = HandleRegistry.shared.register(object) else {
        throw CAPIFailure(COURIER_E_INTERNAL, in: function, detail: "too many live handles")
    }
    return handle
}
