public import HTTPTypes

extension RequestDraft {
    /// Sets `name` to `value`, replacing every existing field of that name.
    ///
    /// - Throws: `invalidRequest` naming `block` when the name is not a valid token or the value
    ///   contains CR, LF, NUL or another control character. (`HTTPField` would silently turn them
    ///   into spaces; Courier refuses them instead.)
    public mutating func setHeader(_ name: String, _ value: String, block: String) throws {
        set(try Self.validatedField(name, value, block: block))
    }

    /// `setHeader` for a name the block knows is valid, which spares parsing it again.
    mutating func setHeader(_ name: HTTPField.Name, _ value: String, block: String) throws {
        set(try Self.validatedField(name, value, block: block))
    }

    private mutating func set(_ field: HTTPField) {
        if headerFields.contains(field.name) {
            headerFields[field.name] = field.value
        } else {
            headerFields.append(field)  // no line to replace: cheaper than the subscript's setter
        }
    }

    /// Appends `value` to the field `name`, joined to an existing value with `separator`
    /// (`, ` as `URLRequest.addValue` does; `; ` for `Cookie`), or adds the field when absent.
    public mutating func addHeader(_ name: String, _ value: String, separator: String = ", ", block: String) throws {
        add(try Self.validatedField(name, value, block: block), separator: separator)
    }

    /// `addHeader` for a name the block knows is valid, which spares parsing it again.
    mutating func addHeader(_ name: HTTPField.Name, _ value: String, separator: String = ", ", block: String) throws {
        add(try Self.validatedField(name, value, block: block), separator: separator)
    }

    private mutating func add(_ field: HTTPField, separator: String) {
        if let existing = headerFields[field.name] {
            headerFields[field.name] = existing.isEmpty ? field.value : existing + separator + field.value
        } else {
            headerFields.append(field)  // no line to replace: cheaper than the subscript's setter
        }
    }

    /// Appends a separate field line, keeping any existing lines of the same name.
    public mutating func appendHeaderLine(_ name: String, _ value: String, block: String) throws {
        headerFields.append(try Self.validatedField(name, value, block: block))
    }

    /// Removes every field named `name`.
    public mutating func removeHeader(_ name: String, block: String) throws {
        guard let fieldName = HTTPField.Name(name) else {
            throw CourierError.invalidRequest("\"\(name.debugEscaped)\" is not a valid header name", block: block)
        }
        headerFields[fieldName] = nil
    }

    /// A field whose name and value were checked against RFC 9110, leading and trailing white space trimmed.
    package static func validatedField(_ name: String, _ value: String, block: String) throws -> HTTPField {
        guard let fieldName = HTTPField.Name(name) else {
            throw CourierError.invalidRequest("\"\(name.debugEscaped)\" is not a valid header name", block: block)
        }
        return try validatedField(fieldName, value, block: block)
    }

    /// A field named `fieldName` whose value was checked and trimmed as `validatedField(_:_:block:)` does.
    package static func validatedField(_ fieldName: HTTPField.Name, _ value: String, block: String) throws -> HTTPField
    {
        // The common case, a value already valid as it stands (so nothing to trim), in one scan.
        if HTTPField.isValidValue(value) { return HTTPField(name: fieldName, value: value) }
        let trimmed = value.trimmingSpaces()
        if let bad = trimmed.unicodeScalars.first(where: { ($0.value < 0x20 && $0 != "\t") || $0.value == 0x7F }) {
            throw CourierError.invalidRequest(
                "the value of header \(fieldName.rawName) contains \(bad.controlName), which could split or smuggle a header",
                block: block)
        }
        guard HTTPField.isValidValue(trimmed) else {
            throw CourierError.invalidRequest(
                "\"\(trimmed.debugEscaped)\" is not a valid value for header \(fieldName.rawName)", block: block)
        }
        return HTTPField(name: fieldName, value: trimmed)
    }
}

extension HTTPField {
    /// A field from a name and value checked as the builder checks them (RFC 9110 token name; no CR,
    /// LF, NUL or other control character in the value; surrounding spaces trimmed).
    ///
    /// - Throws: `invalidRequest` naming `source`, where `HTTPField(name:value:)` would silently
    ///   turn a line break into a space.
    public static func validated(_ name: String, _ value: String, source: String) throws -> HTTPField {
        try RequestDraft.validatedField(name, value, block: source)
    }
}

extension Unicode.Scalar {
    /// A readable name for a control character in an error message.
    var controlName: String {
        switch value {
        case 0x0D: "a carriage return (CR)"
        case 0x0A: "a line feed (LF)"
        case 0x00: "a NUL byte"
        default: "the control character U+\(String(value, radix: 16, uppercase: true))"
        }
    }
}

extension String {
    /// The string with control characters escaped, safe to quote in an error message.
    var debugEscaped: String {
        unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? $0.escaped(asASCII: true) : String($0) }.joined()
    }
}
