/// A request a route cannot answer because a parameter is missing or out of range; the router
/// answers it with 400 and `message`.
public struct RouteInputError: Error, Sendable {
    /// What was wrong, for the response body.
    public var message: String

    /// Creates the error.
    public init(_ message: String) {
        self.message = message
    }
}

extension TestServerRequest {
    /// The integer query parameter `name`, `defaultValue` when absent.
    ///
    /// - Throws: `RouteInputError` when the value is not an integer within `range`.
    public func integer(query name: String, default defaultValue: Int, in range: ClosedRange<Int>) throws -> Int {
        guard let text = query(name) else { return defaultValue }
        guard let value = Int(text), range.contains(value) else {
            throw RouteInputError(
                "query parameter \(name) must be an integer from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    /// The integer path parameter `name`.
    ///
    /// - Throws: `RouteInputError` when the value is not an integer within `range`.
    public func integer(parameter name: String, in range: ClosedRange<Int>) throws -> Int {
        guard let value = parameters[name].flatMap({ Int($0) }), range.contains(value) else {
            throw RouteInputError("\(name) must be an integer from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }
}
