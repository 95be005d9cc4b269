public import CCourier
package import Courier
package import HTTPTypes

#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif

@c @implementation
public func courier_request_method(
    _ request: OpaquePointer?, _ method: UnsafeMutablePointer<UnsafePointer<CChar>?>?,
    _ error: UnsafeMutablePointer<OpaquePointer?>?
) -> courier_code {
    reporting(error) {
        let box = try requestBox(request)
        guard let method else { throw CAPIFailure.invalidArgument("method is NULL") }
        method.pointee = box.withLock { $0.borrowed.strings.cString(.method, $0.request.method.rawValue) }
    }
}

@c @implementation
public func courier_request_url(
    _ request: OpaquePointer?, _ url: UnsafeMutablePointer<UnsafePointer<CChar>?>?,
    _ error: UnsafeMutablePointer<OpaquePointer?>?
) -> courier_code {
    reporting(error) {
        let box = try requestBox(request)
        guard let url else { throw CAPIFailure.invalidArgument("url is NULL") }
        url.pointee = box.withLock { $0.borrowed.strings.cString(.url, $0.request.url.absoluteString) }
    }
}

@c @implementation
public func courier_request_header(
    _ request: OpaquePointer?, _ name: UnsafePointer<CChar>?,
    _ value: UnsafeMutablePointer<UnsafePointer<CChar>?>?,
    _ error: UnsafeMutablePointer<OpaquePointer?>?
) -> courier_code {
    reporting(error) { try requestBox(request).readHeader(name, into: value) }
}

@c @implementation
public func courier_request_header_count(
    _ request: OpaquePointer?, _ count: UnsafeMutablePointer<Int>?,
    _ error: UnsafeMutablePointer<OpaquePointer?>?
) -> courier_code {
    reporting(error) { try requestBox(request).readHeaderCount(into: count) }
}

@c @implementation
public func courier_request_header_at(
    _ request: OpaquePointer?, _ index: Int,
    _ name: UnsafeMutablePointer<UnsafePointer<CChar>?>?,
    _ value: UnsafeMutablePointer<UnsafePointer<CChar>?>?,
    _ error: UnsafeMutablePointer<OpaquePointer?>?
) -> courier_code {
    reporting(error) { try requestBox(request).readHeader(at: index, name: name, value: value) }
}

@c @implementation
public func courier_request_body(
    _ request: OpaquePointer?, _ data: UnsafeMutablePointer<UnsafeRawPointer?>?,
    _ length: UnsafeMutablePointer<Int>?,
    _ error: UnsafeMutablePointer<OpaquePointer?>?
) -> courier_code {
    reporting(error) {
        let box = try requestBox(request)
        guard let data, let length else { throw CAPIFailure.invalidArgument("data or length is NULL") }
        let (pointer, count) = try box.withLock { state in
            let bytes = try inMemoryBytes(of: state.request.body)
            return state.borrowed.strings.bytes(.body, bytes)
        }
        data.pointee = pointer
        length.pointee = count
    }
}

/// The bytes of a body held in memory; files and streams cannot be read without sending.
private func inMemoryBytes(of body: RequestBody?, in function: StaticString = #function) throws -> Data {
    guard let body else { return Data() }
    guard let segments = body.segments else {
        throw CAPIFailure(
            COURIER_E_UNSUPPORTED, in: function,
            detail: "the body streams from a callback; it has no bytes in memory")
    }
    var bytes = Data()
    for segment in segments {
        guard case .bytes(let data) = segment else {
            throw CAPIFailure(
                COURIER_E_UNSUPPORTED, in: function,
                detail: "the body streams from a file; it has no bytes in memory")
        }
        bytes.append(data)
    }
    return bytes
}
