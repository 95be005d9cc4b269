package import CCourier
package import Courier
package import HTTPTypes

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Header edits from C, validated by the same blocks the Swift builder uses.
package enum HeaderEditing {
    /// The line `name: value` from C strings, validated as the builder validates it.
    ///
    /// Setting a header is what most C interceptors do, so the common case builds no string to
    /// check: a name this thread set before comes from its cache, and a value of printable ASCII
    /// with no space at either end needs one scan. Anything else takes the builder's path, with
    /// its messages.
    package static func field(
        _ name: UnsafePointer<CChar>?, _ value: UnsafePointer<CChar>?,
        function: StaticString = #function
    ) throws -> (name: HTTPField.Name, value: String) {
        let role = ThreadRole.current
        if let name, let value, let fieldName = role.headerNames.name(spelled: name), let plain = plainValue(value) {
            return (fieldName, plain)
        }
        let field = try validated(
            CInput.string(name, "name", in: function), CInput.string(value, "value", in: function),
            function: function)
        role.headerNames.remember(field.name)
        return (field.name, field.value)
    }

    /// `fields[name] = value`, but a lone existing line is replaced in place, without the general
    /// setter's temporary collection: the usual case for an interceptor stamping a header. Cookie
    /// keeps the general setter, which splits it into one field per cookie.
    package static func set(_ name: HTTPField.Name, _ value: String, in fields: inout HTTPFields) {
        guard name != .cookie, let index = fields.firstIndex(where: { $0.name == name }),
            !fields[(index + 1)...].contains(where: { $0.name == name })
        else {
            fields[name] = value
            return
        }
        fields[index] = HTTPField(name: name, value: value)
    }

    /// `value` as a string when it is printable ASCII (tabs allowed inside) with no space or tab at
    /// either end: valid as it stands, nothing to trim.
    private static func plainValue(_ value: UnsafePointer<CChar>) -> String? {
        let bytes = UnsafeRawBufferPointer(start: value, count: strlen(value))
        if let first = bytes.first, let last = bytes.last,
            first == 0x20 || first == 0x09 || last == 0x20 || last == 0x09
        {
            return nil
        }
        for byte in bytes where (byte < 0x20 && byte != 0x09) || byte > 0x7E {
            return nil
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The checked field; the function's name is spelled out only when the check fails.
    private static func validated(_ name: String, _ value: String, function: StaticString) throws -> HTTPField {
        do {
            return try HTTPField.validated(name, value, source: "")
        } catch var error as CourierError {
            error.source = cName(function)
            throw error
        }
    }

    /// Removes every line named `name`, or fails with `COURIER_E_NOT_FOUND` when there is none.
    package static func remove(
        _ name: String, from fields: inout HTTPFields, in function: StaticString = #function
    ) throws {
        guard let fieldName = HTTPField.Name(name) else {
            throw CourierError(.invalidRequest, "\"\(name)\" is not a valid header name", source: cName(function))
        }
        guard fields[fieldName] != nil else {
            throw CAPIFailure(COURIER_E_NOT_FOUND, in: function, detail: "there is no header \(name)")
        }
        fields[fieldName] = nil
    }

    /// The value of header `name` as C reads it: lines joined with ", " ("; " for Cookie).
    package static func value(
        of name: String, in fields: HTTPFields, function: StaticString = #function
    ) throws -> String {
        guard let fieldName = HTTPField.Name(name) else {
            throw CAPIFailure(
                COURIER_E_INVALID_ARGUMENT, in: function, detail: "\"\(name)\" is not a valid header name")
        }
        let values = fields[values: fieldName]
        guard !values.isEmpty else {
            throw CAPIFailure(COURIER_E_NOT_FOUND, in: function, detail: "there is no header \(name)")
        }
        return values.joined(separator: fieldName == .cookie ? "; " : ", ")
    }

    /// The line at `index`, or `COURIER_E_NOT_FOUND` past the end.
    package static func line(
        at index: Int, in fields: HTTPFields, function: StaticString = #function
    ) throws -> HTTPField {
        guard index >= 0, index < fields.count else {
            throw CAPIFailure(
                COURIER_E_NOT_FOUND, in: function,
                detail: "index \(index) is past the last of \(fields.count) header lines")
        }
        return fields[fields.index(fields.startIndex, offsetBy: index)]
    }
}
