#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif

/// Which value of an object a borrowed copy holds.
///
/// An enum rather than text keys: a key is made on every read, and reading a response's header
/// lines one by one would otherwise format two strings per line before looking anything up.
package enum BorrowedKey: Hashable {
    case method, url, body, pluginName, pluginVersion
    /// A response's metrics: `courier_metrics`'s strings.
    case remoteAddress, httpVersion, tlsVersion
    /// The lines of one name, joined; the name lowercased.
    case joinedHeader(String)
    /// The name of the header line at an index.
    case lineName(Int)
    /// The value of the header line at an index.
    case lineValue(Int)
}

/// C copies of strings and bytes an object hands out as borrowed pointers.
///
/// The header promises a returned pointer stays valid until its object is changed or freed, so
/// each copy lives here under a key until `invalidate()` (on change) or deinit (on free); asking
/// twice for the same unchanged value returns the same pointer instead of allocating again.
package final class BorrowedStrings {
    package init() {}

    /// The copies of the values without a payload (method, URL, body…), at `BorrowedKey.singleIndex`:
    /// a body read once per response needs no hashing and no dictionary storage.
    private var singles = InlineArray<8, UnsafeMutableRawBufferPointer?>(repeating: nil)
    /// The copies of header values and lines, which a program may read by the hundred.
    private var keyed: [BorrowedKey: UnsafeMutableRawBufferPointer] = [:]

    /// A NUL-terminated copy of `value`, kept under `key`.
    package func cString(_ key: BorrowedKey, _ value: @autoclosure () -> String) -> UnsafePointer<CChar> {
        if let existing = copy(under: key) {
            return UnsafePointer(existing.baseAddress!.assumingMemoryBound(to: CChar.self))
        }
        var text = value()
        let copy = text.withUTF8 { Self.copyWithNUL(UnsafeRawBufferPointer($0)) }
        keep(copy, under: key)
        return UnsafePointer(copy.baseAddress!.assumingMemoryBound(to: CChar.self))
    }

    /// A copy of `value` followed by a NUL byte, kept under `key`.
    package func bytes(_ key: BorrowedKey, _ value: @autoclosure () -> Data) -> (UnsafeRawPointer, Int) {
        if let existing = copy(under: key) { return (UnsafeRawPointer(existing.baseAddress!), existing.count - 1) }
        let copy = value().withUnsafeBytes { Self.copyWithNUL($0) }
        keep(copy, under: key)
        return (UnsafeRawPointer(copy.baseAddress!), copy.count - 1)
    }

    private func copy(under key: BorrowedKey) -> UnsafeMutableRawBufferPointer? {
        if let index = key.singleIndex { return singles[index] }
        return keyed[key]
    }

    private func keep(_ copy: UnsafeMutableRawBufferPointer, under key: BorrowedKey) {
        if let index = key.singleIndex {
            singles[index] = copy
        } else {
            keyed[key] = copy
        }
    }

    private static func copyWithNUL(_ bytes: UnsafeRawBufferPointer) -> UnsafeMutableRawBufferPointer {
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count + 1, alignment: 1)
        if let source = bytes.baseAddress { copy.baseAddress!.copyMemory(from: source, byteCount: bytes.count) }
        copy[bytes.count] = 0
        return copy
    }

    /// Frees every copy: the object changed, so pointers handed out before are no longer valid.
    package func invalidate() {
        for index in singles.indices {
            singles[index]?.deallocate()
            singles[index] = nil
        }
        for copy in keyed.values { copy.deallocate() }
        keyed.removeAll(keepingCapacity: true)
    }

    deinit { invalidate() }
}

extension BorrowedKey {
    /// Where `BorrowedStrings` keeps the copy of a value without a payload; `nil` for the others.
    fileprivate var singleIndex: Int? {
        switch self {
        case .method: 0
        case .url: 1
        case .body: 2
        case .pluginName: 3
        case .pluginVersion: 4
        case .remoteAddress: 5
        case .httpVersion: 6
        case .tlsVersion: 7
        case .joinedHeader, .lineName, .lineValue: nil
        }
    }
}

/// The `BorrowedStrings` of an object, made on the first read: most objects are never read from C.
package struct BorrowedSlot {
    private var storage: BorrowedStrings?

    package init() {}

    /// The copies, created on first use.
    package var strings: BorrowedStrings {
        mutating get {
            if let storage { return storage }
            let created = BorrowedStrings()
            storage = created
            return created
        }
    }

    /// Frees the copies handed out: the object changed.
    package mutating func invalidate() { storage?.invalidate() }
}
