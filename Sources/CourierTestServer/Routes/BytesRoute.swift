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
        return TestServerResponse(headers: [("Content-Type", "application/octet-stream")], body: countingBytes(count))
    }

    /// `count` bytes where byte `i` is `i % 256`, built by whole 256-byte runs so that tens of
    /// megabytes take milliseconds even in a debug build (a byte-by-byte loop there takes seconds).
    private static func countingBytes(_ count: Int) -> Data {
        let run = Data((0...255).map { UInt8($0) })
        var body = Data(capacity: count)
        for _ in 0..<(count / 256) { body.append(run) }
        body.append(run.prefix(count % 256))
        return body
    }
}
