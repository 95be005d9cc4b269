import Courier
import HTTPTypes

/// Header edits from C, validated by the same blocks the Swift builder uses.
enum HeaderEditing {
    /// Applies a header block to `fields`; an invalid name or value names the C function.
    static func apply(_ block: HeaderBlock, to fields: inout HTTPFields, in function: StaticString) throws {
        var draft = RequestDraft()
        draft.headerFields = fields
        do {
            try block.apply(to: &draft)
        } catch var error as CourierError {
            error.source = "\(function)"
            throw error
        }
        fields = draft.headerFields
    }

    /// Removes every line named `name`, or fails with `COURIER_E_NOT_FOUND` when there is none.
    static func remove(_ name: String, from fields: inout HTTPFields, in function: StaticString) throws {
        guard let fieldName = HTTPField.Name(name) else {
            throw CourierError(.invalidRequest, "\"\(name)\" is not a valid header name", source: "\(function)")
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
