public import CCourier
import Courier
import Foundation
import HTTPTypes

@c @implementation
public func courier_request_method(_ request: OpaquePointer?, _ method: UnsafeMutablePointer<UnsafePointer<CChar>?>?,
                                   _ error: UnsafeMutablePointer<OpaquePointer?>?) -> courier_code {
    reporting(error, #function) {
        let box = try requestBox(request, in: #function)
        guard let method else { throw CAPIFailure.invalidArgument("method is NULL", in: #function) }
        method.pointee = box.withLock { $0.borrowed.strings.cString("method", $0.request.method.rawValue) }
    }
}

@c @implementation
public func courier_request_url(_ request: OpaquePointer?, _ url: UnsafeMutablePointer<UnsafePointer<CChar>?>?,
                                _ error: UnsafeMutablePointer<OpaquePointer?>?) -> courier_code {
    reporting(error, #function) {
        let box = try requestBox(request, in: #function)
        guard let url else { throw CAPIFailure.invalidArgument("url is NULL", in: #function) }
        url.pointee = box.withLock { $0.borrowed.strings.cString("url", $0.request.url.absoluteString) }
    }
}

@c @implementation
public func courier_request_header(_ request: OpaquePointer?, _ name: UnsafePointer<CChar>?,
                                   _ value: UnsafeMutablePointer<UnsafePointer<CChar>?>?,
                                   _ error: UnsafeMutablePointer<OpaquePointer?>?) -> courier_code {
    reporting(error, #function) {
        let box = try requestBox(request, in: #function)
        let name = try CInput.string(name, "name", in: #function)
        guard let value else { throw CAPIFailure.invalidArgument("value is NULL", in: #function) }
        value.pointee = try box.withLock { state in
            let joined = try HeaderEditing.value(of: name, in: state.request.headerFields, function: #function)
            return state.borrowed.strings.cString("header:" + name.lowercased(), joined)
        }
    }
}

@c @implementation
public func courier_request_header_count(_ request: OpaquePointer?, _ count: UnsafeMutablePointer<Int>?,
                                         _ error: UnsafeMutablePointer<OpaquePointer?>?) -> courier_code {
    reporting(error, #function) {
        let box = try requestBox(request, in: #function)
        try CInput.store(box.withLock { $0.request.headerFields.count }, into: count, "count", in: #function)
    }
}

@c @implementation
public func courier_request_header_at(_ request: OpaquePointer?, _ index: Int,
                                      _ name: UnsafeMutablePointer<UnsafePointer<CChar>?>?,
                                      _ value: UnsafeMutablePointer<UnsafePointer<CChar>?>?,
                                      _ error: UnsafeMutablePointer<OpaquePointer?>?) -> courier_code {
    reporting(error, #function) {
        let box = try requestBox(request, in: #function)
        guard let name, let value else { throw CAPIFailure.invalidArgument("name or value is NULL", in: #function) }
        try box.withLock { state in
            let field = try HeaderEditing.line(at: index, in: state.request.headerFields, function: #function)
            name.pointee = state.borrowed.strings.cString("name@\(index)", field.name.rawName)
            value.pointee = state.borrowed.strings.cString("value@\(index)", field.value)
        }
    }
}

@c @implementation
public func courier_request_body(_ request: OpaquePointer?, _ data: UnsafeMutablePointer<UnsafeRawPointer?>?,
                                 _ length: UnsafeMutablePointer<Int>?,
                                 _ error: UnsafeMutablePointer<OpaquePointer?>?) -> courier_code {
    reporting(error, #function) {
        let box = try requestBox(request, in: #function)
        guard let data, let length else { throw CAPIFailure.invalidArgument("data or length is NULL", in: #function) }
        let (pointer, count) = try box.withLock { state in
            let bytes = try inMemoryBytes(of: state.request.body, in: #function)
            return state.borrowed.strings.bytes("body", bytes)
        }
        data.pointee = pointer
        length.pointee = count
    }
}

/// The bytes of a body held in memory; files and streams cannot be read without sending.
private func inMemoryBytes(of body: RequestBody?, in function: StaticString) throws -> Data {
    guard let body else { return Data() }
    guard let segments = body.segments else {
        throw CAPIFailure(COURIER_E_UNSUPPORTED, "\(function): the body streams from a callback; it has no bytes in memory")
    }
    var bytes = Data()
    for segment in segments {
        guard case .bytes(let data) = segment else {
            throw CAPIFailure(COURIER_E_UNSUPPORTED, "\(function): the body streams from a file; it has no bytes in memory")
        }
        bytes.append(data)
    }
    return bytes
}
