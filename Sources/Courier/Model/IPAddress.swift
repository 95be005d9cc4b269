#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An IPv4 or IPv6 address as its bytes, read and written by the C library's `inet_pton` and
/// `inet_ntop`.
///
/// A fixed-size value rather than text, so a `ResponseMetrics` that holds one is plain data: every
/// copy of a `Response` then moves bytes, with no reference count to touch.
package struct IPAddress: Sendable, Equatable, BitwiseCopyable {
    /// The address family: 4 or 16 bytes.
    package enum Family: UInt8, Sendable, BitwiseCopyable {
        case v4, v6
    }

    /// IPv4 in the first 4 bytes, IPv6 in all 16, in network order (two words: C's `in6_addr`
    /// is a union, which Swift does not count as bitwise-copyable).
    private let storage: (UInt64, UInt64)
    /// Declared after the bytes, so the value takes 17 bytes rather than 24.
    package let family: Family

    /// The address written in `text` (`127.0.0.1`, `::1`), or `nil` for anything else (a host
    /// name, an address in brackets or with a zone).
    package init?(_ text: String) {
        guard let address = text.withCString({ IPAddress(cString: $0) }) else { return nil }
        self = address
    }

    /// The address written in the C string `text`, without making a Swift string first (what
    /// libcurl's `CURLINFO_PRIMARY_IP` gives).
    package init?(cString text: UnsafePointer<CChar>) {
        var bytes = in6_addr()
        if inet_pton(AF_INET, text, &bytes) == 1 {
            family = .v4
        } else if inet_pton(AF_INET6, text, &bytes) == 1 {
            family = .v6
        } else {
            return nil
        }
        storage = unsafeBitCast(bytes, to: (UInt64, UInt64).self)
    }

    /// The 4 or 16 bytes, in network order.
    package var bytes: [UInt8] {
        withUnsafeBytes(of: storage) { Array($0.prefix(family == .v4 ? 4 : 16)) }
    }

    /// The address as `inet_ntop` writes it: dotted for IPv4, the shortest form for IPv6.
    package var text: String {
        var address = unsafeBitCast(storage, to: in6_addr.self)
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let written = inet_ntop(family == .v4 ? AF_INET : AF_INET6, &address, &buffer, socklen_t(buffer.count))
        return written == nil
            ? "" : String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    package static func == (lhs: IPAddress, rhs: IPAddress) -> Bool {
        lhs.family == rhs.family && lhs.storage == rhs.storage
    }
}
