public import Courier
public import HTTPTypes

/// Which parts of a request must equal a recorded one for a `CassetteTransport` to replay it.
///
/// Method and URL (query included) always have to match; add the header fields that select a
/// different answer (`Accept`, an API version) and the body for requests that differ only
/// there (several POSTs to one endpoint). Values are compared after the cassette's redaction,
/// as they are stored, so a hidden header (`Authorization`) matches any value.
public struct CassetteMatching: Sendable, Hashable {
    /// Header fields whose values must match as well.
    public var headers: Set<HTTPField.Name>
    /// Whether the body must match byte for byte.
    public var body: Bool

    /// Matching on method and URL, plus `headers` and, when `body` is set, the body.
    public init(headers: Set<HTTPField.Name> = [], body: Bool = false) {
        self.headers = headers
        self.body = body
    }

    /// Method and URL only, the default.
    public static let methodAndURL = CassetteMatching()

    /// Why `recorded` does not answer `incoming`, or `nil` when it does.
    func mismatch(between recorded: HTTPArchive.Request, and incoming: HTTPArchive.Request) -> String? {
        guard recorded.method == incoming.method else { return "method differs (\(recorded.method))" }
        guard recorded.url == incoming.url else { return "URL differs" }
        for name in headers.sorted(by: { $0.canonicalName < $1.canonicalName }) {
            guard Self.values(of: name, in: recorded.headers) == Self.values(of: name, in: incoming.headers) else {
                return "header \(name.rawName) differs"
            }
        }
        if body,
            recorded.postData?.text ?? "" != incoming.postData?.text ?? ""
                || recorded.postData?.encoding != incoming.postData?.encoding
        {
            return "body differs"
        }
        return nil
    }

    private static func values(of name: HTTPField.Name, in headers: [HTTPArchive.NameValue]) -> [String] {
        headers.filter { $0.name.lowercased() == name.canonicalName }.map(\.value)
    }
}
