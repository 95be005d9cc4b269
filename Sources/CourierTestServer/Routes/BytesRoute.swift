import Foundation

extension Route {
    /// The largest body `/bytes/{n}` produces, so a typo cannot exhaust memory.
    public static let maximumBytesCount = 64 << 20

    /// `/bytes/{n}`, any method: `n` bytes of `application/octet-stream`, byte `i` being `i % 256`,
    /// so a client can check every byte arrived in place.
    public static let bytes = Route("/bytes/{n}") { request in
        guard let count = request.parameters["n"].flatMap({ Int($0) }), (0...maximumBytesCount).contains(count) else {
            return .text("n must be a number from 0 to \(maximumBytesCount)\n", status: 400)
        }
        let body = Data((0..<count).lazy.map { UInt8(truncatingIfNeeded: $0) })
        return TestServerResponse(headers: [("Content-Type", "application/octet-stream")], body: body)
    }
}
