/// What the server does with a request body as it arrives, decided from the request head
/// before any body byte is read.
public enum RequestBodyHandling: Sendable {
    /// Keep the whole body in `TestServerRequest.body` (up to 64 MiB; larger is answered with 413).
    case collect
    /// Count the body and drop it, so bodies of any size pass in constant memory; `checksum`
    /// adds an FNV-1a 64 checksum to `TestServerRequest.bodyDigest`.
    case digest(checksum: Bool)
    /// Inject `fault` during the body; its phase is taken to be `midRequestBody`.
    case fault(ConnectionFault)
}

/// The size and optional checksum of a request body that was counted instead of kept.
public struct BodyDigest: Sendable, Hashable {
    /// The number of body bytes received.
    public var byteCount: Int
    /// The FNV-1a 64 hash of the body, when the route asked for it.
    public var fnv1a64: UInt64?

    /// Creates a digest.
    public init(byteCount: Int = 0, fnv1a64: UInt64? = nil) {
        self.byteCount = byteCount
        self.fnv1a64 = fnv1a64
    }

    /// Adds `bytes` to the count, and to the checksum when there is one.
    mutating func add(_ bytes: UnsafeRawBufferPointer) {
        byteCount += bytes.count
        if let hash = fnv1a64 { fnv1a64 = FNV1a64.hash(bytes, continuing: hash) }
    }
}
