public import CCourier
package import Courier
package import HTTPTypes

#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif

@c @implementation
public func courier_response_new(
    _ status: Int32, _ response: UnsafeMutablePointer<OpaquePointer?>?,
    _ error: UnsafeMutablePointer<OpaquePointer?>?
) -> courier_code {
    reporting(error) {
        guard let response else { throw CAPIFailure.invalidArgument("response is NULL") }
        let status = try validStatus(status)
        // A response made by C answers a request the chain supplies later; this placeholder is replaced then.
        let placeholder = Request(url: URL(string: "about:blank")!)
        response.pointee = try register(ResponseBox(Response(status: status, request: placeholder)))
    }
}

@c @implementation
public func courier_response_free(_ response: OpaquePointer?) -> courier_code {
    guard let response else { return COURIER_OK }
    return HandleRegistry.shared.remove(response, as: ResponseBox.self) == nil ? COURIER_E_INVALID_HANDLE : COURIER_OK
}

@c @implementation
public func courier_response_status(
    _ response: OpaquePointer?, _ status: UnsafeMutablePointer<Int32>?,
    _ error: UnsafeMutablePointer<OpaquePointer?>?
) -> courier_code {
    reporting(error) {
        let box = try responseBox(response)
        try CInput.store(box.withLock { Int32($0.response.status.code) }, into: status, "status")
    }
}

@c @implementation
public func courier_response_url(
    _ response: OpaquePointer?, _ url: UnsafeMutablePointer<UnsafePointer<CChar>?>?,
    _ error: UnsafeMutablePointer<OpaquePointer?>?
) -> courier_code {
    reporting(error) {
        let box = try responseBox(response)
        guard let url else { throw CAPIFailure.invalidArgument("url is NULL") }
        url.pointee = box.withLock { $0.borrowed.strings.cString(.url, $0.response.request.url.absoluteString) }
    }
}

@c @implementation
public func courier_response_history_count(
    _ response: OpaquePointer?, _ count: UnsafeMutablePointer<Int>?,
    _ error: UnsafeMutablePointer<OpaquePointer?>?
) -> courier_code {
    reporting(error) {
        let box = try responseBox(response)
        try CInput.store(box.withLock { $0.response.history.count }, into: count, "count")
    }
}

@c @implementation
public func courier_response_history_at(
    _ response: OpaquePointer?, _ index: Int, _ hop: UnsafeMutablePointer<OpaquePointer?>?,
    _ error: UnsafeMutablePointer<OpaquePointer?>?
) -> courier_code {
    reporting(error) {
        let history = try responseBox(response).withLock { $0.response.history }
        guard let hop else { throw CAPIFailure.invalidArgument("hop is NULL") }
        guard history.indices.contains(index) else {
            throw CAPIFailure.invalidArgument("index \(index) is not below the history's count, \(history.count)")
        }
        hop.pointee = try register(ResponseBox(history[index]))
    }
}

@c @implementation
public func courier_response_header(
    _ response: OpaquePointer?, _ name: UnsafePointer<CChar>?,
    _ value: UnsafeMutablePointer<UnsafePointer<CChar>?>?,
    _ error: UnsafeMutablePointer<OpaquePointer?>?
) -> courier_code {
    reporting(error) { try responseBox(response).readHeader(name, into: value) }
}

@c @implementation
public func courier_response_header_count(
    _ response: OpaquePointer?, _ count: UnsafeMutablePointer<Int>?,
    _ error: UnsafeMutablePointer<OpaquePointer?>?
) -> courier_code {
    reporting(error) { try responseBox(response).readHeaderCount(into: count) }
}

@c @implementation
public func courier_response_header_at(
    _ response: OpaquePointer?, _ index: Int,
    _ name: UnsafeMutablePointer<UnsafePointer<CChar>?>?,
    _ value: UnsafeMutablePointer<UnsafePointer<CChar>?>?,
    _ error: UnsafeMutablePointer<OpaquePointer?>?
) -> courier_code {
    reporting(error) { try responseBox(response).readHeader(at: index, name: name, value: value) }
}

@c @implementation
public func courier_response_body(
    _ response: OpaquePointer?, _ data: UnsafeMutablePointer<UnsafeRawPointer?>?,
    _ length: UnsafeMutablePointer<Int>?,
    _ error: UnsafeMutablePointer<OpaquePointer?>?
) -> courier_code {
    reporting(error) {
        let box = try responseBox(response)
        guard let data, let length else { throw CAPIFailure.invalidArgument("data or length is NULL") }
        let (pointer, count) = box.withLock { $0.borrowed.strings.bytes(.body, $0.response.body) }
        data.pointee = pointer
        length.pointee = count
    }
}

@c @implementation
public func courier_response_set_status(
    _ response: OpaquePointer?, _ status: Int32,
    _ error: UnsafeMutablePointer<OpaquePointer?>?
) -> courier_code {
    reporting(error) {
        let box = try responseBox(response)
        let status = try validStatus(status)
        box.edit { $0.status = status }
    }
}

@c @implementation
public func courier_response_set_header(
    _ response: OpaquePointer?, _ name: UnsafePointer<CChar>?,
    _ value: UnsafePointer<CChar>?,
    _ error: UnsafeMutablePointer<OpaquePointer?>?
) -> courier_code {
    reporting(error) {
        let box = try responseBox(response)
        let field = try HeaderEditing.field(name, value)
        box.edit { HeaderEditing.set(field.name, field.value, in: &$0.headerFields) }
    }
}

@c @implementation
public func courier_response_add_header(
    _ response: OpaquePointer?, _ name: UnsafePointer<CChar>?,
    _ value: UnsafePointer<CChar>?,
    _ error: UnsafeMutablePointer<OpaquePointer?>?
) -> courier_code {
    reporting(error) {
        let box = try responseBox(response)
        let field = try HeaderEditing.field(name, value)
        box.edit { $0.headerFields.append(HTTPField(name: field.name, value: field.value)) }
    }
}

@c @implementation
public func courier_response_remove_header(
    _ response: OpaquePointer?, _ name: UnsafePointer<CChar>?,
    _ error: UnsafeMutablePointer<OpaquePointer?>?
) -> courier_code {
    reporting(error) {
        let box = try responseBox(response)
        let name = try CInput.string(name, "name")
        try box.edit { try HeaderEditing.remove(name, from: &$0.headerFields) }
    }
}

@c @implementation
public func courier_response_set_body(
    _ response: OpaquePointer?, _ data: UnsafeRawPointer?, _ length: Int,
    _ error: UnsafeMutablePointer<OpaquePointer?>?
) -> courier_code {
    reporting(error) {
        let box = try responseBox(response)
        let bytes = try CInput.bytes(data, length, "data")
        box.edit { response in
            response.body = bytes
            if response.headerFields[.contentLength] != nil {
                response.headerFields[.contentLength] = String(bytes.count)
            }
        }
    }
}

private func validStatus(_ status: Int32, in function: StaticString = #function) throws -> HTTPResponse.Status {
    guard (100...999).contains(status) else {
        throw CAPIFailure.invalidArgument("status \(status) is not between 100 and 999", in: function)
    }
    return HTTPResponse.Status(code: Int(status))
}
