import Courier
import CourierCInterceptors

/// The JSON configuration of the built-in `concurrency_limit` interceptor
/// (`ConcurrencyLimitInterceptor`): `max_requests` in flight (64), `max_requests_per_host` (5),
/// and whether a slot is held until the response body has been read (`hold_until_body_read`).
struct ConcurrencyLimitConfiguration: Decodable {
    var name: String?
    var maxRequests = 64
    var maxRequestsPerHost = 5
    var holdsSlotUntilBodyIsRead = false

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case name
        case maxRequests = "max_requests"
        case maxRequestsPerHost = "max_requests_per_host"
        case holdsSlotUntilBodyIsRead = "hold_until_body_read"
    }

    init() {}

    init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownMembers(besides: CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decodeIfPresent(String.self, forKey: .name)
        for (key, value) in [(CodingKeys.maxRequests, \Self.maxRequests), (.maxRequestsPerHost, \.maxRequestsPerHost)] {
            guard let limit = try container.decodeIfPresent(Int.self, forKey: key) else { continue }
            guard limit >= 1 else {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: container, debugDescription: "must be 1 or more")
            }
            self[keyPath: value] = limit
        }
        holdsSlotUntilBodyIsRead = try container.decodeIfPresent(Bool.self, forKey: .holdsSlotUntilBodyIsRead) ?? false
    }
}
