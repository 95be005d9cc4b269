package import CCourier

#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif

/// Reads what C passes in, refusing NULL and invalid UTF-8 with a message naming the argument.
package enum CInput {
    package static func string(
        _ pointer: UnsafePointer<CChar>?, _ argument: String,
        in function: StaticString = #function
    ) throws -> String {
        guard let pointer else { throw CAPIFailure.invalidArgument("\(argument) is NULL", in: function) }
        guard let string = String(validatingCString: pointer) else {
            throw CAPIFailure.invalidArgument("\(argument) is not valid UTF-8", in: function)
        }
        return string
    }

    package static func optionalString(
        _ pointer: UnsafePointer<CChar>?, _ argument: String,
        in function: StaticString = #function
    ) throws -> String? {
        guard let pointer else { return nil }
        return try string(pointer, argument, in: function)
    }

    package static func bytes(
        _ pointer: UnsafeRawPointer?, _ length: Int, _ argument: String,
        in function: StaticString = #function
    ) throws -> Data {
        guard length > 0 else { return Data() }
        guard let pointer else {
            throw CAPIFailure.invalidArgument("\(argument) is NULL with length \(length)", in: function)
        }
        return Data(bytes: pointer, count: length)
    }

    /// Stores `value` through `pointer`, refusing a NULL out parameter.
    package static func store<T>(
        _ value: T, into pointer: UnsafeMutablePointer<T>?, _ argument: String,
        in function: StaticString = #function
    ) throws {
        guard let pointer else { throw CAPIFailure.invalidArgument("\(argument) is NULL", in: function) }
        pointer.pointee = value
    }

    /// Checks a media type or header value C passed: no control characters but tab.
    package static func headerValue(
        _ value: String, _ argument: String, in function: StaticString = #function
    ) throws -> String {
        if value.utf8.contains(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }) {
            throw CAPIFailure(
                COURIER_E_INVALID_REQUEST, in: function,
                detail: "\(argument) contains a control character (CR, LF or another)")
        }
        return value
    }
}
