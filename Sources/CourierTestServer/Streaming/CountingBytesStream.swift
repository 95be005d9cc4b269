public import Foundation

/// Streams `count` bytes where byte `i` is `i % 256`, so a client can check every byte arrived
/// in place; chunks are slices of one shared pattern, so any count streams in constant memory.
public struct CountingBytesStream: BodyStream {
    /// The largest chunk the stream writes at once.
    public static let maximumChunkSize = 64 << 10

    /// 0, 1, …, 255, 0, 1, … long enough for a maximal chunk starting at any offset modulo 256.
    private static let pattern = Data((0..<(maximumChunkSize + 256)).map { UInt8(truncatingIfNeeded: $0) })

    private let count: Int
    private let chunkSize: Int
    private var offset = 0

    /// Streams `count` bytes in chunks of `chunkSize` (clamped to 1...`maximumChunkSize`).
    public init(count: Int, chunkSize: Int = maximumChunkSize) {
        self.count = count
        self.chunkSize = min(max(chunkSize, 1), Self.maximumChunkSize)
    }

    /// Streams the bytes `first..<end` of the pattern: a byte range of a `count`-byte body.
    public init(from first: Int, to end: Int, chunkSize: Int = maximumChunkSize) {
        self.init(count: end, chunkSize: chunkSize)
        offset = min(max(first, 0), end)
    }

    /// The bytes `0..<count` of the pattern, for routes that send them whole.
    public static func bytes(count: Int) -> Data {
        Data((0..<count).lazy.map { UInt8(truncatingIfNeeded: $0) })
    }

    /// Whether `bytes` are the stream's bytes from position `offset` on: a client's check that every
    /// byte arrived in place. Compared with `memcmp` against the shared pattern, since a loop over
    /// each byte of a multi-megabyte body holds a thread for seconds in debug and sanitizer builds.
    public static func matches(_ bytes: some ContiguousBytes, at offset: Int) -> Bool {
        bytes.withUnsafeBytes { received in
            pattern.withUnsafeBytes { expected in
                var compared = 0
                while compared < received.count {
                    let start = (offset + compared) % 256
                    let length = min(received.count - compared, maximumChunkSize)
                    guard memcmp(received.baseAddress! + compared, expected.baseAddress! + start, length) == 0 else {
                        return false
                    }
                    compared += length
                }
                return true
            }
        }
    }

    public mutating func next() -> BodyStreamPart {
        guard offset < count else { return .end }
        let length = min(chunkSize, count - offset)
        let start = offset % 256
        offset += length
        return .bytes(Self.pattern[start..<start + length])
    }
}
