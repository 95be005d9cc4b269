package import CCourier

/// Reads a caller's extensible struct (one that starts with `size_t struct_size`) by the rule that
/// keeps every 1.x program working with every 1.x library, as Linux's `copy_struct_from_user` does:
///
/// - smaller than the struct's first version: refused, it was never filled by its `_init`;
/// - smaller than this library's struct (built against an older minor): the bytes it has are
///   read, the fields past them keep their defaults;
/// - larger (built against a newer minor): accepted when every byte this library does not know
///   is zero, refused naming the struct when one is not, since a set field would be ignored.
///
/// Only `struct_size` bytes are ever read, so an older caller's smaller allocation is never overrun.
package enum ExtensibleStruct {
    /// Each extensible struct's size in ABI 1.0, fixed here and never taken from today's header:
    /// the smallest `struct_size` a caller may pass.
    package enum FirstVersionSize {
        package static let clientOptions = 56
        package static let sendOptions = 32
        package static let interceptor = 56
        package static let pluginMetadata = 32
        /// `courier_metrics`, first in ABI 1.4.
        package static let metrics = 144
    }

    /// Writes the first-version part of `value` to a caller's struct, with `struct_size` set to
    /// that part's size: what an exported `_init` does. A caller may be a program built against
    /// any 1.x header, so nothing past the first version is written; the header's inline `_init`
    /// has zeroed the rest (every later field defaults to 0) and sets `struct_size` to its own size.
    package static func initialize<Value>(
        _ pointer: UnsafeMutablePointer<Value>, with value: Value, firstVersionSize: Int
    ) {
        // Never more than the value holds, whatever the constant says: no trap is reachable from C.
        let size = min(firstVersionSize, MemoryLayout<Value>.size)
        var value = value
        withUnsafeMutableBytes(of: &value) { bytes in
            bytes.storeBytes(of: size, as: Int.self)
            UnsafeMutableRawPointer(pointer).copyMemory(from: bytes.baseAddress!, byteCount: size)
        }
    }

    /// The struct at `pointer` as this library knows it: `defaults` overlaid with the caller's bytes.
    package static func read<Value>(
        _ pointer: UnsafePointer<Value>, over defaults: Value, firstVersionSize: Int,
        name: String, in function: String
    ) throws -> Value {
        let callerSize = UnsafeRawPointer(pointer).load(as: Int.self)
        let knownSize = MemoryLayout<Value>.size
        guard callerSize >= firstVersionSize else {
            throw CAPIFailure.invalidArgument(
                "\(name).struct_size is \(callerSize), smaller than its first version (\(firstVersionSize) bytes); "
                    + "fill it with its _init function first", in: function)
        }
        let bytes = UnsafeRawPointer(pointer)
        if callerSize > knownSize {
            let unknown = UnsafeRawBufferPointer(start: bytes + knownSize, count: callerSize - knownSize)
            if let offset = unknown.firstIndex(where: { $0 != 0 }) {
                throw CAPIFailure.invalidArgument(
                    "\(name) sets a field this library does not know (byte \(knownSize + offset) of \(callerSize)); "
                        + "the program was built against a newer courier.h (ABI \(COURIER_ABI_MAJOR).\(COURIER_ABI_MINOR) here)",
                    in: function)
            }
        }
        var value = defaults
        withUnsafeMutableBytes(of: &value) { target in
            target.copyMemory(from: UnsafeRawBufferPointer(start: bytes, count: min(callerSize, knownSize)))
        }
        return value
    }

    package static func read<Value>(
        _ pointer: UnsafePointer<Value>, over defaults: Value, firstVersionSize: Int,
        name: String, in function: StaticString = #function
    ) throws -> Value {
        try read(pointer, over: defaults, firstVersionSize: firstVersionSize, name: name, in: "\(function)")
    }

    /// Fills a caller's output struct (one the library writes, such as `courier_metrics`) with
    /// `value`: at most the caller's `struct_size` bytes, so an older caller's smaller struct is
    /// never overrun, and `struct_size` as the caller set it. A newer caller's fields past this
    /// library's keep what the caller put there.
    package static func write<Value>(
        _ value: Value, to pointer: UnsafeMutablePointer<Value>, firstVersionSize: Int,
        name: String, in function: StaticString = #function
    ) throws {
        let callerSize = UnsafeRawPointer(pointer).load(as: Int.self)
        guard callerSize >= firstVersionSize else {
            throw CAPIFailure.invalidArgument(
                "\(name).struct_size is \(callerSize), smaller than its first version (\(firstVersionSize) bytes); "
                    + "set it to sizeof(\(name))", in: function)
        }
        let size = min(callerSize, MemoryLayout<Value>.size)
        var value = value
        withUnsafeMutableBytes(of: &value) { bytes in
            bytes.storeBytes(of: callerSize, as: Int.self)
            UnsafeMutableRawPointer(pointer).copyMemory(from: bytes.baseAddress!, byteCount: size)
        }
    }
}
