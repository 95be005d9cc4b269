package import CCourier
package import Courier
package import HTTPTypes

/// The state of a handle whose header lines C reads: a request's or a response's. Both read their
/// headers the same way, so `courier_request_header*` and `courier_response_header*` share one reader.
package protocol HeaderReadable {
    var headerFields: HTTPFields { get }
    /// The copies handed out to C.
    var borrowed: BorrowedSlot { get set }
}

extension RequestBox.State: HeaderReadable {
    package var headerFields: HTTPFields { request.headerFields }
}

extension ResponseBox.State: HeaderReadable {
    package var headerFields: HTTPFields { response.headerFields }
}

extension Locked where State: HeaderReadable {
    /// `*value` = the lines named `name`, joined as `HeaderEditing.value(of:in:function:)` joins
    /// them, as a borrowed C string.
    package func readHeader(
        _ name: UnsafePointer<CChar>?, into value: UnsafeMutablePointer<UnsafePointer<CChar>?>?,
        in function: StaticString = #function
    ) throws {
        let name = try CInput.string(name, "name", in: function)
        guard let value else { throw CAPIFailure.invalidArgument("value is NULL", in: function) }
        value.pointee = try withLock { state in
            let joined = try HeaderEditing.value(of: name, in: state.headerFields, function: function)
            return state.borrowed.strings.cString(.joinedHeader(name.lowercased()), joined)
        }
    }

    /// `*count` = the number of header lines.
    package func readHeaderCount(into count: UnsafeMutablePointer<Int>?, in function: StaticString = #function) throws {
        try CInput.store(withLock { $0.headerFields.count }, into: count, "count", in: function)
    }

    /// `*name` and `*value` = the line at `index`, as borrowed C strings.
    package func readHeader(
        at index: Int, name: UnsafeMutablePointer<UnsafePointer<CChar>?>?,
        value: UnsafeMutablePointer<UnsafePointer<CChar>?>?, in function: StaticString = #function
    ) throws {
        guard let name, let value else { throw CAPIFailure.invalidArgument("name or value is NULL", in: function) }
        try withLock { state in
            let field = try HeaderEditing.line(at: index, in: state.headerFields, function: function)
            name.pointee = state.borrowed.strings.cString(.lineName(index), field.name.rawName)
            value.pointee = state.borrowed.strings.cString(.lineValue(index), field.value)
        }
    }
}
