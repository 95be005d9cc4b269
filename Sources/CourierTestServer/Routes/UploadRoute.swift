import Foundation

extension Route {
    /// `/upload`, POST or PUT: counts the request body and answers `{"received": N}`, without
    /// keeping the body, so uploads of any size (a gigabyte and more) cost the server no memory.
    ///
    /// Query: `checksum=fnv1a64` adds `"fnv1a64": "<16 hex digits>"`, the FNV-1a 64 hash of the
    /// body (see `FNV1a64`); it is opt-in because it costs about 5 ns per byte in a debug build.
    public static let upload = Route(
        "/upload",
        methods: ["POST", "PUT"],
        requestBody: { .digest(checksum: $0.query("checksum") == "fnv1a64") }
    ) { request in
        if let checksum = request.query("checksum"), checksum != "fnv1a64" {
            throw RouteInputError("checksum must be fnv1a64")
        }
        let digest = request.bodyDigest ?? BodyDigest()
        return try .json(
            UploadReceipt(
                received: digest.byteCount,
                fnv1a64: digest.fnv1a64.map { String(format: "%016llx", $0) }))
    }
}

/// The JSON body of an `/upload` response.
public struct UploadReceipt: Codable, Sendable, Equatable {
    /// The number of body bytes received.
    public var received: Int
    /// The body's FNV-1a 64 hash as 16 lowercase hex digits, when asked for.
    public var fnv1a64: String?

    /// Creates a receipt.
    public init(received: Int, fnv1a64: String? = nil) {
        self.received = received
        self.fnv1a64 = fnv1a64
    }
}
