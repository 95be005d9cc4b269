public import CourierFoundation
public import Foundation
#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// A post's media upload as a DeclarativeNetworking user writes it, on Courier's blocks.
public func mediaUpload(template: URLRequest, accountId: String, sinceId: String?, token: String, jpeg: Data) throws -> URLRequest {
    // README: declarative-networking
    let request = try template.updating {
        HTTPMethod.POST
        "v1/accounts"                    // a literal: two segments
        accountId                        // a value: always one segment
        "media"
        if let since = sinceId { URLQueryItem(name: "sinceId", value: since) }
        URLQueryItem(name: "limit", value: "20")
        Authorization(.bearer(token))
        AcceptLanguage()                 // the user's languages, from LANGUAGE/LC_ALL/LC_MESSAGES/LANG
        IdempotencyKey()
        CacheControl([.noCache, .noStore])
        (jpeg, "image/jpeg")             // the body and its media type
    }
    print(request.curlCommand)
    // README: end
    return request
}
