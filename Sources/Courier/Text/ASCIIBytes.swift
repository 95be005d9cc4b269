#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The byte-level steps of reading a response head's lines in the core: finding a byte, and
/// comparing a field name as received with a name in lower case (`ReceivedHeaderLines`).
///
/// The curl transport's head parser and framing notes keep private copies of these two steps:
/// called across the module boundary (the compiler did not inline them, `@inlinable` or not),
/// they added about 380 instructions to every response on the I/O thread (callgrind).
package enum ASCIIBytes {
    /// The first index of `byte` in `bytes`, found with `memchr`.
    @inline(__always)
    package static func firstIndex(of byte: UInt8, in bytes: UnsafeRawBufferPointer) -> Int? {
        guard let base = bytes.baseAddress, let found = memchr(base, Int32(byte), bytes.count) else { return nil }
        return base.distance(to: UnsafeRawPointer(found))
    }

    /// Whether `bytes` spell `lowercased` in any ASCII case (`Content-Length`, `content-length`
    /// and `CONTENT-LENGTH` all spell `content-length`).
    @inline(__always)
    package static func equalIgnoringCase(_ bytes: UnsafeRawBufferPointer, lowercased: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count == lowercased.count else { return false }
        for index in 0..<bytes.count {
            let byte = bytes[index]
            let lowered = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
            if lowered != lowercased[index] { return false }
        }
        return true
    }
}
