public import Foundation

/// The 64-bit FNV-1a hash: two lines per byte, enough to tell two large bodies apart without
/// keeping either, and simple to recompute in any language a test is written in.
///
/// About 5 ns per byte in a debug build (5 s per GiB), so checksumming is opt-in for large uploads.
public enum FNV1a64 {
    /// The hash of no bytes: the FNV-1a 64 offset basis.
    public static let initial: UInt64 = 0xcbf2_9ce4_8422_2325
    private static let prime: UInt64 = 0x0000_0100_0000_01b3

    /// The hash of `data`.
    public static func hash(_ data: Data) -> UInt64 {
        data.withUnsafeBytes { hash($0, continuing: initial) }
    }

    /// The hash of the bytes hashed so far (`hash`) followed by `bytes`.
    public static func hash(_ bytes: UnsafeRawBufferPointer, continuing hash: UInt64) -> UInt64 {
        var hash = hash
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* prime
        }
        return hash
    }
}
