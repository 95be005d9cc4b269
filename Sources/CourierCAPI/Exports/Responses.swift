public import CCourier
import Courier
import Foundation
import HTTPTypes

@c @implementation
public func courier_response_new(_ status: Int32, _ response: UnsafeMutablePointer<OpaquePointer?>?,
                                 _ error: UnsafeMutablePointer<OpaquePointer?>?) -> courier_code {
    reporting(error, #function) {
        guard let response else { throw CAPIFailure.invalidArgument("response is NULL", in: #function) }
        let status = try validStatus(status, in: #function)
        // A response made by C answers a request the chain supplies later; this placeholder is replaced then.
        let placeholder = Request(url: URL(string: "about:blank")!)
        response.pointee = try register(ResponseBox(Response(status: status, request: placeholder)), in: #function)
    }
}

@c @implementation
public func courier_response_free(_ response: OpaquePointer?) -> courier_code {
    guard let response else { return COURIER_OK }
    return HandleRegistry.shared.remove(response, as: ResponseBox.self) == nil ? COURIER_E_INVALID_HANDLE : COURIER_OK
}

@c @implementation
public func courier_response_status(_ response: OpaquePointer?, _ status: UnsafeMutablePointer<Int32>?,
                                    _ error: UnsafeMutablePointer<OpaquePointer?>?) -> courier_code {
    reporting(error, #function) {
        let box = try responseBox(response, in: #function)
        try CInput.store(Int32(box.response.status.code), into: status, "status", in: #function)
    }
}

@c @implementation
public func courier_response_url(_ response: OpaquePointer?, _ url: UnsafeMutablePointer<UnsafePointer<CChar>?>?,
                                 _ error: UnsafeMutablePointer<OpaquePointer?>?) -> courier_code {
    reporting(error, #function) {
        let box = try responseBox(response, in: #function)
        guard let url else { throw CAPIFailure.invalidArgument("url is NULL", in: #function) }
        url.pointee = box.withLock { $0.borrowed.strings.cString("url", $0.response.request.url.absoluteString) }
    }
}

@c @implementation
public func courier_response_header(_ response: OpaquePointer?, _ name: UnsafePointer<CChar>?,
                                    _ value: UnsafeMutablePointer<UnsafePointer<CChar>?>?,
                                    _ error: UnsafeMutablePointer<OpaquePointer?>?) -> courier_code {
    reporting(error, #function) {
        let box = try responseBox(response, in: #function)
        let name = try CInput.string(name, "name", in: #function)
        guard let value else { throw CAPIFailure.invalidArgument("value is NULL", in: #function) }
        value.pointee = try box.withLock { state in
            let joined = try HeaderEditing.value(of: name, in: state.response.headerFields, function: #function)
            return state.borrowed.strings.cString("header:" + name.lowercased(), joined)
        }
    }
}

@c @implementation
public func courier_response_header_count(_ response: OpaquePointer?, _ count: UnsafeMutablePointer<Int>?,
                                          _ error: UnsafeMutablePointer<OpaquePointer?>?) -> courier_code {
    reporting(error, #function) {
        let box = try responseBox(response, in: #function)
        try CInput.store(box.withLock { $0.response.headerFields.count }, into: count, "count", in: #function)
    }
}

@c @implementation
public func courier_response_header_at(_ response: OpaquePointer?, _ index: Int,
                                       _ name: UnsafeMutablePointer<UnsafePointer<CChar>?>?,
                                       _ value: UnsafeMutablePointer<UnsafePointer<CChar>?>?,
                                       _ error: UnsafeMutablePointer<OpaquePointer?>?) -> courier_code {
    reporting(error, #function) {
        let box = try responseBox(response, in: #function)
        guard let name, let value else { throw CAPIFailure.invalidArgument("name or value is NULL", in: #function) }
        try box.withLock { state in
            let field = try HeaderEditing.line(at: index, in: state.response.headerFields, function: #function)
            name.pointee = state.borrowed.strings.cString("name@\(index)", field.name.rawName)
            value.pointee = state.borrowed.strings.cString("value@\(index)", field.value)
        }
    }
}

@c @implementation
public func courier_response_body(_ response: OpaquePointer?, _ data: UnsafeMutablePointer<UnsafeRawPointer?>?,
                                  _ length: UnsafeMutablePointer<Int>?,
                                  _ error: UnsafeMutablePointer<OpaquePointer?>?) -> courier_code {
    reporting(error, #function) {
        let box = try responseBox(response, in: #function)
        guard let data, let length else { throw CAPIFailure.invalidArgument("data or length is NULL", in: #function) }
        let (pointer, count) = box.withLock { $0.borrowed.strings.bytes("body", $0.response.body) }
        data.pointee = pointer
        length.pointee = count
    }
}

@c @implementation
public func courier_response_set_status(_ response: OpaquePointer?, _ status: Int32,
                                        _ error: UnsafeMutablePointer<OpaquePointer?>?) -> courier_code {
    reporting(error, #function) {
        let box = try responseBox(response, in: #function)
        let status = try validStatus(status, in: #function)
        box.edit { $0.status = status }
    }
}

@c @implementation
public func courier_response_set_header(_ response: OpaquePointer?, _ name: UnsafePointer<CChar>?,
                                        _ value: UnsafePointer<CChar>?,
                                        _ error: UnsafeMutablePointer<OpaquePointer?>?) -> courier_code {
    reporting(error, #function) {
        let box = try responseBox(response, in: #function)
        let field = try HeaderEditing.field(name, value, function: #function)
        box.edit { HeaderEditing.set(field.name, field.value, in: &$0.headerFields) }
    }
}

@c @implementation
public func courier_response_add_header(_ response: OpaquePointer?, _ name: UnsafePointer<CChar>?,
                                        _ value: UnsafePointer<CChar>?,
                                        _ error: UnsafeMutablePointer<OpaquePointer?>?) -> courier_code {
    reporting(error, #function) {
        let box = try responseBox(response, in: #function)
        let field = try HeaderEditing.field(name, value, function: #function)
        box.edit { $0.headerFields.append(HTTPField(name: field.name, value: field.value)) }
    }
}

@c @implementation
public func courier_response_remove_header(_ response: OpaquePointer?, _ name: UnsafePointer<CChar>?,
                                           _ error: UnsafeMutablePointer<OpaquePointer?>?) -> courier_code {
    reporting(error, #function) {
        let box = try responseBox(response, in: #function)
        let name = try CInput.string(name, "name", in: #function)
        try box.edit { try HeaderEditing.remove(name, from: &$0.headerFields, in: #function) }
    }
}

@c @implementation
public func courier_response_set_body(_ response: OpaquePointer?, _ data: UnsafeRawPointer?, _ length: Int,
                                      _ error: UnsafeMutablePointer<OpaquePointer?>?) -> courier_code {
    reporting(error, #function) {
        let box = try responseBox(response, in: #function)
        let bytes = try CInput.bytes(data, length, "data", in: #function)
        box.edit { response in
            response.body = bytes
            if response.headerFields[.contentLength] != nil {
                response.headerFields[.contentLength] = String(bytes.count)
            }
        }
    }
}

private func validStatus(_ status: Int32, in function: StaticString) throws -> HTTPResponse.Status {
    guard (100...999).contains(status) else {
        throw CAPIFailure.invalidArgument("status \(status) is not between 100 and 999", in: function)
    }
    return HTTPResponse.Status(code: Int(status))
}
