public import Foundation

/// How an endpoint encodes its body and fields: `@JSON` (the default), `@FormUrlEncoded`/`@URLForm`, `@Multipart`.
public enum APIEncoding: Sendable {
    /// A JSON body; `nil` coders use the key mapping's defaults.
    case json(encoder: JSONEncoder? = nil, decoder: JSONDecoder? = nil)
    /// An `application/x-www-form-urlencoded` body.
    case urlForm(encoder: URLFormEncoder? = nil, decoder: JSONDecoder? = nil)
    /// A `multipart/form-data` body, streamed from disk for file parts.
    case multipart(decoder: JSONDecoder? = nil)

    var decoder: JSONDecoder? {
        switch self {
        case .json(_, let decoder), .urlForm(_, let decoder), .multipart(let decoder): decoder
        }
    }
}
