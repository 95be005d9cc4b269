public import HTTPTypes

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// Which secrets to hide before a request or response is written anywhere a person may read it:
/// header values, URL query values and the URL's user and password.
///
/// Logging and explaining both use it, so a secret hidden in one is hidden in the other.
public struct Redaction: Sendable, Hashable {
    /// The headers whose values are always hidden: `Authorization`, `Proxy-Authorization`,
    /// `Cookie` and `Set-Cookie`.
    public static let standardHeaders: Set<HTTPField.Name> = [.authorization, .proxyAuthorization, .cookie, .setCookie]

    /// The headers whose values are hidden (case-insensitive).
    public var headers: Set<HTTPField.Name>
    /// The query item names whose values are hidden (case-insensitive), such as `api_key`.
    public var queryItems: Set<String>
    /// What a hidden value is replaced with.
    public var replacement: String

    /// Hides the standard headers plus `headers` and the values of `queryItems`.
    public init(headers: Set<HTTPField.Name> = [], queryItems: Set<String> = [], replacement: String = "<redacted>") {
        self.headers = Self.standardHeaders.union(headers)
        self.queryItems = Set(queryItems.map { $0.lowercased() })
        self.replacement = replacement
    }

    /// Whether the value of header `name` is hidden.
    public func hides(_ name: HTTPField.Name) -> Bool { headers.contains(name) }

    /// `fields` with every hidden value replaced.
    public func redacting(_ fields: HTTPFields) -> HTTPFields {
        guard fields.contains(where: { hides($0.name) }) else { return fields }
        return HTTPFields(
            fields.map { field in
                hides(field.name) ? HTTPField(name: field.name, value: replacement) : field
            })
    }

    /// `url` with its user, password and hidden query values replaced. The user goes too: a token
    /// is often given as the user alone (`https://TOKEN@host/`, as GitHub's and npm's are).
    public func redacting(_ url: URL) -> URL {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url }
        var changed = false
        if components.user != nil {
            components.user = replacement
            changed = true
        }
        if components.password != nil {
            components.password = replacement
            changed = true
        }
        if !queryItems.isEmpty, let items = components.percentEncodedQueryItems {
            let hidden = items.map { item in
                guard queryItems.contains(PercentEncoding.decode(item.name)?.lowercased() ?? item.name.lowercased())
                else { return item }
                changed = true
                return URLQueryItem(
                    name: item.name, value: PercentEncoding.encode(replacement, allowing: PercentEncoding.alphanumerics)
                )
            }
            components.percentEncodedQueryItems = hidden
        }
        return changed ? components.url ?? url : url
    }

    /// `request` with hidden header values and URL parts replaced; the body is left as it is.
    public func redacting(_ request: Request) -> Request {
        var redacted = request
        redacted.url = redacting(request.url)
        redacted.headerFields = redacting(request.headerFields)
        return redacted
    }

    /// The hidden values that occur in `fields` and `url`: whole header values, the credential
    /// within them (what follows the scheme in `Bearer abc`, each cookie's value, a `Set-Cookie`'s
    /// value but not its attributes), the URL's user and password and hidden query values.
    package func secrets(in fields: HTTPFields, url: URL? = nil) -> [String] {
        var secrets: [String] = []
        for field in fields where hides(field.name) {
            secrets.append(field.value)
            switch field.name {
            case .cookie, .setCookie:
                let pairs = field.value.split(separator: ";").map { $0.trimmingWhitespace() }
                for pair in field.name == .setCookie ? Array(pairs.prefix(1)) : pairs {
                    if let value = pair.split(separator: "=", maxSplits: 1).dropFirst().first {
                        secrets.append(String(value))
                    }
                }
            default:
                if let space = field.value.firstIndex(of: " ") {
                    secrets.append(field.value[field.value.index(after: space)...].trimmingWhitespace())
                }
            }
        }
        if let url, let components = URLComponents(url: url, resolvingAgainstBaseURL: false) {
            if let user = components.user { secrets.append(user) }
            if let password = components.password { secrets.append(password) }
            for item in components.queryItems ?? [] where queryItems.contains(item.name.lowercased()) {
                if let value = item.value { secrets.append(value) }
            }
        }
        return secrets.filter { $0.count >= 6 && $0 != replacement }.sorted { $0.count > $1.count }
    }

    /// `text` with every one of `secrets` replaced, for text that may quote a header or a
    /// URL: an error description, or a body that echoes the request.
    package func scrubbing(_ text: String, secrets: [String]) -> String {
        var scrubbed = text
        for secret in secrets where scrubbed.contains(secret) {
            scrubbed = scrubbed.replacing(secret, with: replacement)
        }
        return scrubbed
    }

    /// `text` with the hidden values of `fields` and `url` replaced.
    func scrubbing(_ text: String, secretsFrom fields: HTTPFields, url: URL? = nil) -> String {
        scrubbing(text, secrets: secrets(in: fields, url: url))
    }
}
