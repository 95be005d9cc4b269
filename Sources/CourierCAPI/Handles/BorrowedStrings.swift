import Foundation

/// C copies of strings and bytes an object hands out as borrowed pointers.
///
/// The header promises a returned pointer stays valid until its object is changed or freed, so
/// each copy lives here under a key until `invalidate()` (on change) or deinit (on free); asking
/// twice for the same unchanged value returns the same pointer instead of allocating again.
final class BorrowedStrings {
    private var storage: [String: (buffer: UnsafeMutableRawPointer, count: Int)] = [:]

    /// A NUL-terminated copy of `value`, kept under `key`.
    func cString(_ key: String, _ value: @autoclosure () -> String) -> UnsafePointer<CChar> {
        if let existing = storage[key] { return UnsafePointer(existing.buffer.assumingMemoryBound(to: CChar.self)) }
        let copy = Array(value().utf8CString)
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: copy.count, alignment: 1)
        copy.withUnsafeBytes { buffer.copyMemory(from: $0.baseAddress!, byteCount: copy.count) }
        storage[key] = (buffer, copy.count)
        return UnsafePointer(buffer.assumingMemoryBound(to: CChar.self))
    }

    /// A copy of `value` followed by a NUL byte, kept under `key`.
    func bytes(_ key: String, _ value: @autoclosure () -> Data) -> (UnsafeRawPointer, Int) {
        if let existing = storage[key] { return (UnsafeRawPointer(existing.buffer), existing.count) }
        let data = value()
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: data.count + 1, alignment: 1)
        data.copyBytes(to: buffer.assumingMemoryBound(to: UInt8.self), count: data.count)
        buffer.storeBytes(of: 0, toByteOffset: data.count, as: UInt8.self)
        storage[key] = (buffer, data.count)
        return (UnsafeRawPointer(buffer), data.count)
    }

    /// Frees every copy: the object changed, so pointers handed out before are no longer valid.
    func invalidate() {
        for entry in storage.values { entry.buffer.deallocate() }
        storage.removeAll(keepingCapacity: true)
    }

    deinit { invalidate() }
}

/// The `BorrowedStrings` of an object, made on the first read: most objects are never read from C.
struct BorrowedSlot {
    private var storage: BorrowedStrings?

    init() {}

    /// The copies, created on first use.
    var strings: BorrowedStrings {
        mutating get {
            if let storage { return storage }
            let created = BorrowedStrings()
            storage = created
            return created
        }
    }

    /// Frees the copies handed out: the object changed.
    mutating func invalidate() { storage?.invalidate() }
}
