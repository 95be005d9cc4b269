import Courier
import CourierCInterceptors

/// The JSON configuration of the built-in `validation` interceptor: the acceptable `statuses`
/// (codes, or `"200-299"` ranges; 2xx by default) and `content_types` (`"accept"`, the request's
/// `Accept` header, by default; `"any"`; or a list of MIME types with `type/*` wildcards).
struct ValidationConfiguration: Decodable {
    var name: String?
    var statuses = Set(200..<300)
    var contentTypes = ValidationInterceptor.ContentTypes.fromAcceptHeader

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case name, statuses
        case contentTypes = "content_types"
    }

    init() {}

    init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownMembers(besides: CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decodeIfPresent(String.self, forKey: .name)
        if let entries = try container.decodeIfPresent([StatusEntry].self, forKey: .statuses) {
            statuses = entries.reduce(into: []) { $0.formUnion($1.codes) }
        }
        if let word = try? container.decodeIfPresent(String.self, forKey: .contentTypes) {
            switch word {
            case "accept": contentTypes = .fromAcceptHeader
            case "any": contentTypes = .any
            default:
                throw DecodingError.dataCorruptedError(
                    forKey: .contentTypes, in: container,
                    debugDescription: "must be \"accept\", \"any\" or a list of MIME types, not \"\(word)\"")
            }
        } else if let types = try container.decodeIfPresent([String].self, forKey: .contentTypes) {
            contentTypes = .only(
                try types.map { type in
                    let parsed = MIMEType(type)
                    let parts = parsed.essence.split(separator: "/", omittingEmptySubsequences: false)
                    guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && !$0.contains(where: \.isWhitespace) })
                    else {
                        throw DecodingError.dataCorruptedError(
                            forKey: .contentTypes, in: container,
                            debugDescription: "\"\(type)\" is not a MIME type")
                    }
                    return parsed
                })
        }
    }
}

/// One member of `statuses`: a code (`404`) or an inclusive range (`"200-299"`).
private struct StatusEntry: Decodable {
    let codes: ClosedRange<Int>

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let codes: ClosedRange<Int>?
        if let code = try? container.decode(Int.self) {
            codes = code...code
        } else {
            let text = try container.decode(String.self)
            let bounds = text.split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
            if bounds.count == 2, let low = bounds[0], let high = bounds[1], low <= high {
                codes = low...high
            } else {
                codes = nil
            }
        }
        guard let codes, codes.lowerBound >= 100, codes.upperBound <= 599 else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "must be a status code or a range such as \"200-299\" within 100-599")
        }
        self.codes = codes
    }
}
