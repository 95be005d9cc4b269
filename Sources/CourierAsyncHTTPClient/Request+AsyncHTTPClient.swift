import Courier
import Foundation
import HTTPTypes
import NIOHTTP1

/// What both of AsyncHTTPClient's request types take from a Courier request.
extension Request {
    /// Refuses what AsyncHTTPClient cannot send: a URL that is not `http` or `https`, or has no host.
    func checkSendableByAsyncHTTPClient() throws {
        guard let scheme, scheme == "http" || scheme == "https", host?.isEmpty == false else {
            throw CourierError(
                .invalidRequest, "AsyncHTTPClient sends only http and https URLs with a host, not \(url)",
                source: "AsyncHTTPClientTransport", request: self)
        }
    }

    /// `wireHeaderFields` in order, as AsyncHTTPClient's headers.
    var asyncHTTPClientHeaders: HTTPHeaders {
        var headers = HTTPHeaders()
        headers.reserveCapacity(headerFields.count + 1)
        for field in wireHeaderFields {
            headers.add(name: field.name.rawName, value: field.value)
        }
        return headers
    }

    /// The chunks of `body`, this request's; a body that cannot give them (a one-shot stream already
    /// used) fails with an error that names this request.
    func chunks(of body: RequestBody) throws -> RequestBody.Chunks {
        do {
            return try body.chunks()
        } catch var error as CourierError {
            if error.request == nil { error.request = self }
            throw error
        }
    }
}

extension RequestBody {
    /// The bytes when the body is exactly one in-memory segment, which AsyncHTTPClient can write in one go.
    var singleBytesSegment: Data? {
        guard let segments, segments.count == 1, case .bytes(let data) = segments[0] else { return nil }
        return data
    }
}
