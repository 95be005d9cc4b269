package import Courier

/// The kinds of object a C handle can name; encoded in the handle, so a request handle passed
/// where a client is expected is refused. Each kind belongs to exactly one final class.
package enum HandleKind: UInt64 {
    case error = 1, request, response, client, call, exchange, plugin, registrar
}

/// A Swift object that C code reaches through a handle.
package protocol HandleObject: AnyObject, Sendable {
    static var handleKind: HandleKind { get }
}

/// Maps the opaque handles C code holds to the Swift objects behind them.
///
/// A handle is not a pointer: it packs a slot index, the slot's generation and the kind of object,
/// so a freed handle (the slot's generation moved on), a handle of another kind, or an arbitrary
/// pointer that never came from here is refused with `COURIER_E_INVALID_HANDLE` instead of being
/// dereferenced (ARCHITECTURE.md, decision 11). No Swift object ever crosses the boundary.
package final class HandleRegistry: Sendable {
    package static let shared = HandleRegistry()

    private struct Slot {
        package var generation: UInt32 = 1
        package var kind: UInt64 = 0
        /// Stored as `AnyObject`: each kind has exactly one class, so a kind match makes the
        /// downcast safe without a dynamic cast on every call.
        package var object: AnyObject?
    }

    private struct Table {
        package var slots: [Slot] = []
        package var free: [Int] = []
    }

    private static let indexBits: UInt64 = 24
    /// A lock no fork leaves held: a process made by fork() must look a handle up to refuse it.
    private let lock = ForkSafeLock()
    nonisolated(unsafe) private var storage = Table()

    /// Runs `body` on the table, under the lock.
    private func withTable<T>(_ body: (inout Table) -> T) -> T {
        lock.withLock { body(&storage) }
    }

    /// Registers `object` and returns its new handle, or `nil` when 16 million handles are live.
    package func register(_ object: some HandleObject) -> OpaquePointer? {
        let kind = type(of: object).handleKind.rawValue
        return withTable { table -> OpaquePointer? in
            let index: Int
            if let reused = table.free.popLast() {
                index = reused
            } else {
                guard table.slots.count < 1 << Self.indexBits else { return nil }
                index = table.slots.count
                table.slots.append(Slot())
            }
            table.slots[index].kind = kind
            table.slots[index].object = object
            return Self.handle(index: index, generation: table.slots[index].generation, kind: kind)
        }
    }

    /// The live object of type `T` that `handle` names, or `nil` for any other handle.
    ///
    /// Inlinable over the untyped lookup: unspecialized in another module (`clientBox` is in the C
    /// library's own), the generic lookup asked the runtime for `T?`'s metadata on every call.
    @inlinable
    package func object<T: HandleObject>(_ handle: OpaquePointer?, as type: T.Type) -> T? {
        object(handle, kind: T.handleKind).map { unsafeDowncast($0, to: T.self) }
    }

    /// The live object of `kind` that `handle` names, or `nil` for any other handle.
    @usableFromInline
    package func object(_ handle: OpaquePointer?, kind: HandleKind) -> AnyObject? {
        guard let (index, generation) = Self.decode(handle, kind: kind.rawValue) else { return nil }
        return withTable { table -> AnyObject? in
            guard index < table.slots.count, table.slots[index].generation == generation,
                table.slots[index].kind == kind.rawValue
            else { return nil }
            return table.slots[index].object
        }
    }

    /// Invalidates two handles and returns new handles to the same objects, reusing their slots,
    /// under one lock: how a callback's exchange and request handles, which live only while it
    /// runs, are handed to the next callback. A `nil` or dead handle renews to `nil`.
    package func renew<A: HandleObject, B: HandleObject>(
        _ first: OpaquePointer?, as firstType: A.Type,
        _ second: OpaquePointer?, as secondType: B.Type
    )
        -> (OpaquePointer?, OpaquePointer?)
    {
        let firstSlot = Self.decode(first, kind: A.handleKind.rawValue)
        let secondSlot = Self.decode(second, kind: B.handleKind.rawValue)
        return withTable { table in
            (
                Self.renew(firstSlot, kind: A.handleKind, in: &table),
                Self.renew(secondSlot, kind: B.handleKind, in: &table)
            )
        }
    }

    private static func renew(
        _ slot: (index: Int, generation: UInt32)?, kind: HandleKind,
        in table: inout Table
    ) -> OpaquePointer? {
        guard let (index, generation) = slot, index < table.slots.count,
            table.slots[index].generation == generation, table.slots[index].kind == kind.rawValue
        else { return nil }
        let renewed = nextGeneration(after: generation)
        table.slots[index].generation = renewed
        return handle(index: index, generation: renewed, kind: kind.rawValue)
    }

    /// Invalidates `handle` and returns its object, or `nil` when it was not a live handle of type `T`.
    @discardableResult
    package func remove<T: HandleObject>(_ handle: OpaquePointer?, as type: T.Type) -> T? {
        guard let (index, generation) = Self.decode(handle, kind: T.handleKind.rawValue) else { return nil }
        return withTable { table -> T? in
            guard index < table.slots.count, table.slots[index].generation == generation,
                table.slots[index].kind == T.handleKind.rawValue,
                let object = table.slots[index].object
            else { return nil }
            table.slots[index].object = nil
            table.slots[index].kind = 0
            table.slots[index].generation = Self.nextGeneration(after: generation)
            table.free.append(index)
            return unsafeDowncast(object, to: T.self)
        }
    }

    /// Generations skip 0, which `decode` refuses, so no live handle is ever all zero above the kind.
    private static func nextGeneration(after generation: UInt32) -> UInt32 {
        generation &+ 1 == 0 ? 1 : generation &+ 1
    }

    private static func handle(index: Int, generation: UInt32, kind: UInt64) -> OpaquePointer? {
        let raw = UInt64(generation) << 32 | UInt64(index) << 8 | kind
        return OpaquePointer(bitPattern: UInt(raw))
    }

    private static func decode(_ handle: OpaquePointer?, kind: UInt64) -> (index: Int, generation: UInt32)? {
        guard let handle else { return nil }
        let raw = UInt64(UInt(bitPattern: Int(bitPattern: handle)))
        guard raw & 0xFF == kind else { return nil }
        let index = Int((raw >> 8) & ((1 << indexBits) - 1))
        let generation = UInt32(truncatingIfNeeded: raw >> 32)
        guard generation != 0 else { return nil }
        return (index, generation)
    }
}
