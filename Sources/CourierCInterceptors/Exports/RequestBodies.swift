public import CCourier
package import Courier

#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif

@c @implementation
public func courier_request_set_body_bytes(
    _ request: OpaquePointer?, _ data: UnsafeRawPointer?, _ length: Int,
    _ contentType: UnsafePointer<CChar>?,
    _ error: UnsafeMutablePointer<OpaquePointer?>?
) -> courier_code {
    reporting(error) {
        let box = try requestBox(request)
        let bytes = try CInput.bytes(data, length, "data")
        let type = try mediaType(contentType, default: .octetStream)
        try box.edit { state in try RequestBox.setBody(.data(bytes, type: type), on: &state) }
    }
}

@c @implementation
public func courier_request_set_body_string(
    _ request: OpaquePointer?, _ text: UnsafePointer<CChar>?,
    _ contentType: UnsafePointer<CChar>?,
    _ error: UnsafeMutablePointer<OpaquePointer?>?
) -> courier_code {
    reporting(error) {
        let box = try requestBox(request)
        let text = try CInput.string(text, "text")
        let type = try mediaType(contentType, default: MIMEType.plainText.charset("utf-8"))
        try box.edit { state in try RequestBox.setBody(.string(text, type: type), on: &state) }
    }
}

@c @implementation
public func courier_request_set_body_json(
    _ request: OpaquePointer?, _ json: UnsafePointer<CChar>?,
    _ error: UnsafeMutablePointer<OpaquePointer?>?
) -> courier_code {
    reporting(error) {
        let box = try requestBox(request)
        let json = try CInput.string(json, "json")
        guard JSONSyntax.isValid(Data(json.utf8)) else {
            throw CAPIFailure(COURIER_E_ENCODING, detail: "json is not valid JSON text")
        }
        try box.edit { state in try RequestBox.setBody(.json(text: json), on: &state) }
    }
}

@c @implementation
public func courier_request_add_form_field(
    _ request: OpaquePointer?, _ name: UnsafePointer<CChar>?,
    _ value: UnsafePointer<CChar>?,
    _ error: UnsafeMutablePointer<OpaquePointer?>?
) -> courier_code {
    reporting(error) {
        let box = try requestBox(request)
        let name = try CInput.string(name, "name")
        let value = try CInput.string(value, "value")
        try box.edit { state in
            let items = (state.formItems ?? []) + [URLQueryItem(name: name, value: value)]
            try RequestBox.setBody(.urlEncoded(items), on: &state)
            state.formItems = items
        }
    }
}

@c @implementation
public func courier_request_set_body_file(
    _ request: OpaquePointer?, _ path: UnsafePointer<CChar>?,
    _ contentType: UnsafePointer<CChar>?,
    _ error: UnsafeMutablePointer<OpaquePointer?>?
) -> courier_code {
    reporting(error) {
        let box = try requestBox(request)
        let path = try readableFile(path)
        let type = try mediaType(contentType, default: .octetStream)
        try box.edit { state in try RequestBox.setBody(.file(URL(fileURLWithPath: path), type: type), on: &state) }
    }
}

@c @implementation
public func courier_request_add_multipart_field(
    _ request: OpaquePointer?, _ name: UnsafePointer<CChar>?,
    _ value: UnsafePointer<CChar>?,
    _ error: UnsafeMutablePointer<OpaquePointer?>?
) -> courier_code {
    reporting(error) {
        let box = try requestBox(request)
        let name = try CInput.string(name, "name")
        let value = try CInput.string(value, "value")
        try box.edit { state in try addPart(.field(name: name, value: value), to: &state) }
    }
}

@c @implementation
public func courier_request_add_multipart_data(
    _ request: OpaquePointer?, _ name: UnsafePointer<CChar>?,
    _ filename: UnsafePointer<CChar>?,
    _ contentType: UnsafePointer<CChar>?, _ data: UnsafeRawPointer?,
    _ length: Int,
    _ error: UnsafeMutablePointer<OpaquePointer?>?
) -> courier_code {
    reporting(error) {
        let box = try requestBox(request)
        let name = try CInput.string(name, "name")
        let filename = try CInput.optionalString(filename, "filename")
        let type = try mediaType(contentType, default: .octetStream)
        let bytes = try CInput.bytes(data, length, "data")
        try box.edit { state in
            try addPart(.data(name: name, filename: filename, data: bytes, type: type), to: &state)
        }
    }
}

@c @implementation
public func courier_request_add_multipart_file(
    _ request: OpaquePointer?, _ name: UnsafePointer<CChar>?,
    _ path: UnsafePointer<CChar>?, _ filename: UnsafePointer<CChar>?,
    _ contentType: UnsafePointer<CChar>?,
    _ error: UnsafeMutablePointer<OpaquePointer?>?
) -> courier_code {
    reporting(error) {
        let box = try requestBox(request)
        let name = try CInput.string(name, "name")
        let path = try readableFile(path)
        let filename = try CInput.optionalString(filename, "filename")
        let type = try contentType.map { _ in try mediaType(contentType, default: .octetStream) }
        try box.edit { state in
            try addPart(
                .file(name: name, fileURL: URL(fileURLWithPath: path), filename: filename, type: type), to: &state)
        }
    }
}

@c @implementation
public func courier_request_set_body_callback(
    _ request: OpaquePointer?, _ read: courier_read_fn?,
    _ userData: UnsafeMutableRawPointer?, _ destroy: courier_destroy_fn?,
    _ length: Int64, _ contentType: UnsafePointer<CChar>?,
    _ error: UnsafeMutablePointer<OpaquePointer?>?
) -> courier_code {
    reporting(error) {
        let box = try requestBox(request)
        guard let read else { throw CAPIFailure.invalidArgument("read is NULL") }
        guard length >= -1 else { throw CAPIFailure.invalidArgument("length is below -1") }
        let type = try mediaType(contentType, default: .octetStream)
        let source = CallbackBodySource(
            read: read, userData: userData, destroy: destroy, length: length >= 0 ? length : nil)
        try box.edit { state in
            try RequestBox.setBody(.stream(source.chunks(), length: source.length, type: type), on: &state)
        }
    }
}

/// Appends a multipart part, re-encoding the body with every part so far; files stay on disk.
private func addPart(_ part: MultipartPart, to state: inout RequestBox.State) throws {
    let parts = (state.multipartParts ?? []) + [part]
    try RequestBox.setBody(.multipart(strategy: .streamed()) { for part in parts { part } }, on: &state)
    state.multipartParts = parts
}

/// A media type C passed, or `fallback` for NULL; control characters are refused.
private func mediaType(
    _ pointer: UnsafePointer<CChar>?, default fallback: MIMEType,
    in function: StaticString = #function
) throws -> MIMEType {
    guard let value = try CInput.optionalString(pointer, "content_type", in: function) else { return fallback }
    return MIMEType(rawValue: try CInput.headerValue(value, "content_type", in: function))
}

/// A path C passed that names a readable regular file now.
private func readableFile(_ pointer: UnsafePointer<CChar>?, in function: StaticString = #function) throws -> String {
    let path = try CInput.string(pointer, "path", in: function)
    guard RegularFile.isReadable(atPath: path) else {
        throw CAPIFailure(COURIER_E_ENCODING, in: function, detail: "\(path) is not a readable file")
    }
    return path
}
