import CFFI
import Foundation

/// An argument for a call through libffi.
enum FFIValue {
    case pointer(UnsafeRawPointer?)
    case int32(Int32)
    case int64(Int64)
    case size(Int)

    /// The libffi type that describes it.
    var type: UnsafeMutablePointer<ffi_type> {
        switch self {
        case .pointer: cffi_type_pointer()
        case .int32: cffi_type_sint32()
        case .int64: cffi_type_sint64()
        case .size: cffi_type_size()
        }
    }

    /// Stores the value at `slot`, which holds 8 bytes.
    func store(at slot: UnsafeMutableRawPointer) {
        switch self {
        case .pointer(let value): slot.storeBytes(of: value, as: UnsafeRawPointer?.self)
        case .int32(let value): slot.storeBytes(of: value, as: Int32.self)
        case .int64(let value): slot.storeBytes(of: value, as: Int64.self)
        case .size(let value): slot.storeBytes(of: value, as: Int.self)
        }
    }
}

/// What a function returns, as libffi sees it.
enum FFIReturn {
    case void
    case int32
    case uint32
    case pointer

    var type: UnsafeMutablePointer<ffi_type> {
        switch self {
        case .void: cffi_type_void()
        case .int32: cffi_type_sint32()
        case .uint32: cffi_type_uint32()
        case .pointer: cffi_type_pointer()
        }
    }
}

/// Why a libffi call could not be made.
struct FFIError: Error, CustomStringConvertible {
    var description: String
}

/// A C function found with dlsym, called the way a foreign-function interface does: a call
/// interface prepared with ffi_prep_cif from the argument types, then ffi_call with each
/// argument stored in memory. No Swift declaration of the function is involved.
struct FFIFunction {
    let name: String
    let address: UnsafeMutableRawPointer
    let returns: FFIReturn

    init(_ library: UnsafeMutableRawPointer, _ name: String, returns: FFIReturn) throws {
        guard let address = dlsym(library, name) else {
            throw FFIError(description: "dlsym(\(name)): \(String(cString: dlerror()))")
        }
        self.name = name
        self.address = address
        self.returns = returns
    }

    /// Calls the function; the result widened to 64 bits (libffi's ffi_arg), or 0 for void.
    @discardableResult
    func call(_ arguments: [FFIValue]) throws -> UInt64 {
        let count = arguments.count
        let cif = UnsafeMutablePointer<ffi_cif>.allocate(capacity: 1)
        let types = UnsafeMutablePointer<UnsafeMutablePointer<ffi_type>?>.allocate(capacity: max(count, 1))
        let slots = UnsafeMutableRawPointer.allocate(byteCount: 8 * max(count, 1), alignment: 8)
        let values = UnsafeMutablePointer<UnsafeMutableRawPointer?>.allocate(capacity: max(count, 1))
        let result = UnsafeMutableRawPointer.allocate(byteCount: 16, alignment: 16)
        defer {
            cif.deallocate()
            types.deallocate()
            slots.deallocate()
            values.deallocate()
            result.deallocate()
        }
        for (index, argument) in arguments.enumerated() {
            types[index] = argument.type
            argument.store(at: slots + 8 * index)
            values[index] = slots + 8 * index
        }
        guard ffi_prep_cif(cif, FFI_DEFAULT_ABI, UInt32(count), returns.type, types) == FFI_OK else {
            throw FFIError(description: "ffi_prep_cif failed for \(name)")
        }
        result.storeBytes(of: 0, as: UInt64.self)
        ffi_call(cif, unsafeBitCast(address, to: (@convention(c) () -> Void).self), result, values)
        return result.load(as: UInt64.self)
    }

    /// Calls a function that returns a courier_code (a C int).
    func code(_ arguments: FFIValue...) throws -> Int32 {
        Int32(truncatingIfNeeded: try call(arguments))
    }

    /// Calls a function that returns a pointer.
    func pointer(_ arguments: FFIValue...) throws -> UnsafeRawPointer? {
        UnsafeRawPointer(bitPattern: UInt(try call(arguments)))
    }
}
