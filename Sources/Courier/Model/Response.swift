public import Foundation
public import HTTPTypes

/// An HTTP response as a value: status, header fields, body bytes, and the request that produced it.
public struct Response: Sendable {
    /// The status code and reason phrase.
    public var status: HTTPResponse.Status
    /// The header fields, ordered, case-insensitive and multi-valued.
    public var headerFields: HTTPFields
    /// The body bytes, after any content decoding.
    public var body: Data
    /// The request as it was finally sent, after every interceptor and redirect.
    public var request: Request

    /// Creates a response, for transports and for interceptors that answer on their own.
    public init(status: HTTPResponse.Status, headerFields: HTTPFields = [:], body: Data = Data(), request: Request) {
        self.status = status
        self.headerFields = headerFields
        self.body = body
        self.request = request
    }

    /// The body decoded as UTF-8 text, with invalid bytes replaced.
    public var text: String { String(decoding: body, as: UTF8.self) }

    /// The `Content-Type` of the response, when it has one.
    public var contentType: MIMEType? { headerFields[.contentType].map(MIMEType.init(rawValue:)) }
}
