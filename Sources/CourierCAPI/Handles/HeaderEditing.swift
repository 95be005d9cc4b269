import Courier
import HTTPTypes

/// Header edits from C, validated by the same blocks the Swift builder uses.
enum HeaderEditing {
    /// Sets `name` to `value`, replacing every line of that name; validated as the builder validates.
    static func set(_ name: String, _ value: String, in fields: inout HTTPFields, function: StaticString) throws {
        let field = try validated(name, value, function: function)
        fields[field.name] = field.value
    }

    /// Appends the line `name: value`, keeping existing lines of that name.
    static func append(_ name: String, _ value: String, to fields: inout HTTPFields, function: StaticString) throws {
        fields.append(try validated(name, value, function: function))
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
    static func remove(_ name: String, from fields: inout HTTPFields, in function: StaticString) throws {
        guard let fieldName = HTTPField.Name(name) else {
            throw CourierError(.invalidRequest, "\"\(name)\" is not a valid header name", source: cName(function))
        }
        guard fields[fieldName] != nil else {
            throw CAPIFailure(COURIER_E_NOT_FOUND, "\(function): there is no header \(name)")
        }
        fields[fieldName] = nil
    }

    /// The value of header `name` as C reads it: lines joined with ", " ("; " for Cookie).
    static func value(of name: String, in fields: HTTPFields, function: StaticString) throws -> String {
        guard let fieldName = HTTPField.Name(name) else {
            throw CAPIFailure(COURIER_E_INVALID_ARGUMENT, "\(function): \"\(name)\" is not a valid header name")
        }
        let values = fields[values: fieldName]
        guard !values.isEmpty else { throw CAPIFailure(COURIER_E_NOT_FOUND, "\(function): there is no header \(name)") }
        return values.joined(separator: fieldName == .cookie ? "; " : ", ")
    }

    /// The line at `index`, or `COURIER_E_NOT_FOUND` past the end.
    static func line(at index: Int, in fields: HTTPFields, function: StaticString) throws -> HTTPField {
        guard index >= 0, index < fields.count else {
            throw CAPIFailure(COURIER_E_NOT_FOUND, "\(function): index \(index) is past the last of \(fields.count) header lines")
        }
        return fields[fields.index(fields.startIndex, offsetBy: index)]
    }
}

import CCourier

/// A C function's name from `#function`, which spells it `courier_x(_:_:)`.
func cName(_ function: StaticString) -> String {
    let name = "\(function)"
    return name.firstIndex(of: "(").map { String(name[..<$0]) } ?? name
}
