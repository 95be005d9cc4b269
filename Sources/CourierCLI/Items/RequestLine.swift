public import CourierRequestItems

/// The positional arguments `[METHOD] URL [ITEM…]`, split the way HTTPie splits them.
public struct RequestLine: Sendable, Equatable {
    /// The method as given, uppercased; `nil` lets the body decide (GET without one, POST with one).
    public var method: String?
    /// The URL as given, before shorthand expansion.
    public var url: String
    /// The request items, in order.
    public var items: [RequestItem]

    /// Creates a request line from its parts.
    public init(method: String?, url: String, items: [RequestItem]) {
        self.method = method
        self.url = url
        self.items = items
    }

    /// Splits `arguments`: the first is the method when it is a known method name or an uppercase
    /// word and more arguments follow; the next is the URL; the rest are items.
    ///
    /// - Throws: `RequestLineError.missingURL`, or the `RequestItemError` of the first bad item.
    public static func parse(
        _ arguments: [String], readFile: (String) throws -> String = RequestItemParser.readTextFile
    ) throws -> RequestLine {
        guard var url = arguments.first else { throw RequestLineError.missingURL }
        var rest = arguments.dropFirst()
        var method: String?
        if let second = rest.first, looksLikeMethod(url) {
            method = url.uppercased()
            url = second
            rest = rest.dropFirst()
        }
        return RequestLine(
            method: method, url: url, items: try rest.map { try RequestItemParser.parse($0, readFile: readFile) })
    }

    /// The methods recognised in any case; other methods must be written in capitals (`PURGE`).
    static let knownMethods: Set<String> = [
        "GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS", "TRACE", "CONNECT",
    ]

    /// Whether `argument` is a method rather than a URL: `get`, `POST`, `PURGE`, but not `localhost`.
    static func looksLikeMethod(_ argument: String) -> Bool {
        guard !argument.isEmpty, argument.allSatisfy({ $0.isASCII && $0.isLetter }) else { return false }
        return knownMethods.contains(argument.uppercased()) || argument == argument.uppercased()
    }
}

/// The positional arguments do not name a URL.
public enum RequestLineError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No URL was given.
    case missingURL

    public var description: String {
        switch self {
        case .missingURL: "no URL given; try 'courier :8080/get' or 'courier --help'"
        }
    }

}

extension RequestLine {
    /// The names of the header items (`Name:value`, `Name;`, `Name:`), as given.
    public var headerNames: [String] {
        items.compactMap { item in
            switch item {
            case .header(let name, _), .emptyHeader(let name), .removedHeader(let name): name
            default: nil
            }
        }
    }

    /// The headers the items set, in order: `Name:value`, and `Name;` as an empty value.
    public var headerValues: [(name: String, value: String)] {
        items.compactMap { item in
            switch item {
            case .header(let name, let value): (name, value)
            case .emptyHeader(let name): (name, "")
            default: nil
            }
        }
    }
}
