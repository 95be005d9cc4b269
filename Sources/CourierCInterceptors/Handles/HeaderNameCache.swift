package import HTTPTypes

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The last few header names set from C on one thread, validated and lowercased once.
///
/// Interceptors set the same few names on every request; finding one here is a length check
/// and a `memcmp` instead of a string, a token scan and a lowercase copy.
package struct HeaderNameCache {
    private static let capacity = 8

    private var spellings: [[UInt8]] = []
    private var names: [HTTPField.Name] = []
    /// The entry the next new name replaces once the cache is full.
    private var oldest = 0

    /// The cached name spelled exactly as the C string `spelling`, if there is one.
    package func name(spelled spelling: UnsafePointer<CChar>) -> HTTPField.Name? {
        let length = strlen(spelling)
        for index in spellings.indices where spellings[index].count == length {
            let same = spellings[index].withUnsafeBytes { memcmp($0.baseAddress!, spelling, length) == 0 }
            if same { return names[index] }
        }
        return nil
    }

    /// Keeps `name`, replacing the oldest entry when full.
    package mutating func remember(_ name: HTTPField.Name) {
        let spelling = Array(name.rawName.utf8)
        guard !spellings.contains(spelling) else { return }
        if spellings.count < Self.capacity {
            spellings.append(spelling)
            names.append(name)
        } else {
            spellings[oldest] = spelling
            names[oldest] = name
            oldest = (oldest + 1) % Self.capacity
        }
    }
}
