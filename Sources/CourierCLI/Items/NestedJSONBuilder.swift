import CourierRequestItems

/// Builds a JSON body from data items in the order given, reading each name as HTTPie 3's
/// nested-JSON path (`user[tags][]=a`, `kids[1]=Thelma`, `[]:=1`).
///
/// A container's type is set by the first path through it: a key on an array, an index on an
/// object, or any path through a string, number, boolean or null is HTTPie's Type Error, never a
/// silent overwrite. Missing array positions are sent as `null`, and a later path may fill them.
///
/// One rule differs from HTTPie on purpose: HTTPie lets a later item replace a value already set
/// (`a=1 a=2` sends `{"a": "2"}`), which drops the first silently. Here setting a path that
/// already holds a different value is an error naming the path; the same value again is accepted,
/// since nothing is lost. `a[]=1 a[]=2` sends both.
struct NestedJSONBuilder {
    /// The largest array index a path may use: HTTPie fills the positions before it with null,
    /// so a mistyped index would otherwise build an array of any size.
    static let largestIndex = 1_000_000

    /// The body so far; `nil` until the first item.
    private(set) var root: JSONBodyValue?

    /// The body built: an object, or an array when the paths start with `[`; `{}` when empty.
    var body: JSONBodyValue { root ?? .object([]) }

    /// Puts `value` where `name` leads.
    ///
    /// - Throws: `NestedJSONError`: a syntax error in the path, a path through a value of
    ///   another type, a negative or too large index, or a path that already holds another value.
    mutating func add(_ name: FieldName, _ value: JSONBodyValue) throws(NestedJSONError) {
        let path = try NestedJSONPath(parsing: name.spelling)
        try Self.insert(value, step: 0, of: path, into: &root)
    }

    /// Applies `path.steps[step...]` to `slot`, creating the container the step needs when the slot is empty.
    private static func insert(
        _ value: JSONBodyValue, step index: Int, of path: NestedJSONPath,
        into slot: inout JSONBodyValue?
    ) throws(NestedJSONError) {
        let step = path.steps[index]
        let isLast = index == path.steps.count - 1
        let container = opened(slot ?? (step.action == .append || isIndex(step) ? .array([]) : .object([])))
        switch (step.action, container) {
        case (.key(let key), .object(var members)):
            let existing = members.lastIndex { $0.key == key }
            if isLast {
                if let existing {
                    try checkUnchanged(members[existing].value, by: value, path: path)
                } else {
                    members.append(JSONBodyValue.Member(key: key, value: value))
                }
            } else {
                var child = existing.map { members[$0].value }
                try insert(value, step: index + 1, of: path, into: &child)
                guard let child else { preconditionFailure("insert(_:step:of:into:) leaves its slot filled") }
                if let existing {
                    members[existing].value = child
                } else {
                    members.append(JSONBodyValue.Member(key: key, value: child))
                }
            }
            slot = .object(members)
        case (.index(let position), .array(var elements)):
            guard position >= 0 else {
                throw NestedJSONError(
                    .value, "Negative indexes are not supported.", key: path.source, highlight: step.numberRange)
            }
            guard position <= largestIndex else {
                throw NestedJSONError(
                    .value, "Indexes above \(largestIndex) are not supported.", key: path.source,
                    highlight: step.numberRange)
            }
            if elements.count <= position {
                elements.append(contentsOf: repeatElement(JSONBodyValue?.none, count: position - elements.count + 1))
            }
            if isLast {
                if let old = elements[position] {
                    try checkUnchanged(old, by: value, path: path)
                } else {
                    elements[position] = value
                }
            } else {
                var child = elements[position]
                try insert(value, step: index + 1, of: path, into: &child)
                elements[position] = child
            }
            slot = .array(elements)
        case (.append, .array(var elements)):
            if isLast {
                elements.append(value)
            } else {
                var child: JSONBodyValue?
                try insert(value, step: index + 1, of: path, into: &child)
                elements.append(child)
            }
            slot = .array(elements)
        default:
            throw typeError(step: index, of: path, found: container)
        }
    }

    private static func isIndex(_ step: NestedJSONPath.Step) -> Bool {
        if case .index = step.action { true } else { false }
    }

    /// `value` with raw JSON containers read into members and elements, so a path can go inside.
    private static func opened(_ value: JSONBodyValue) -> JSONBodyValue {
        guard case .raw(let text) = value, text.first == "{" || text.first == "[" else { return value }
        return (try? RawJSONReader.read(text)) ?? value
    }

    /// HTTPie's Type Error for a step that needs another type than the value it reaches.
    private static func typeError(step index: Int, of path: NestedJSONPath, found: JSONBodyValue) -> NestedJSONError {
        let step = path.steps[index]
        let (action, required) =
            switch step.action {
            case .key: ("key", "object")
            case .index: ("index", "array")
            case .append: ("append", "array")
            }
        let reached = path.steps[..<index].map(\.reconstructed).joined()
        return NestedJSONError(
            .type,
            "Cannot perform '\(action)' based access on '\(reached)' which has a type of '\(found.typeName)' but this operation requires a type of '\(required)'.",
            key: path.source, highlight: step.range.isEmpty ? nil : step.range)
    }

    /// Nothing, when the path already holds exactly `new`; otherwise the error that refuses to replace it.
    private static func checkUnchanged(
        _ old: JSONBodyValue, by new: JSONBodyValue, path: NestedJSONPath
    ) throws(NestedJSONError) {
        guard old.text != new.text else { return }
        let written = path.steps.map(\.reconstructed).joined()
        let count = path.source.count
        throw NestedJSONError(
            .value,
            "Cannot set '\(written)' twice: it already holds a value of type '\(old.typeName)', which HTTPie would silently replace. Send one value, or several with '\(written)[]'.",
            key: path.source, highlight: count == 0 ? nil : 0..<count)
    }
}
