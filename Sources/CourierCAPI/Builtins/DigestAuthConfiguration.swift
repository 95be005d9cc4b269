import Courier
import CourierCInterceptors

/// The JSON configuration of the built-in `digest_auth` interceptor: the `user` and `password`
/// that answer a server's Digest challenges (both required, both strings).
struct DigestAuthConfiguration: Decodable {
    var name: String?
    var user: String
    var password: String

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case name, user, password
    }

    init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownMembers(besides: CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decodeIfPresent(String.self, forKey: .name)
        user = try container.decode(String.self, forKey: .user)
        password = try container.decode(String.self, forKey: .password)
    }
}
