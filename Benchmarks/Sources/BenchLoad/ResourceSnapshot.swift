#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the process holds at one moment: heap bytes in use, open descriptors and resident memory.
///
/// Scale mode takes three (before the measured cycle, at its deadline with every slot in flight,
/// after its client is freed), so the summary can derive memory per request in flight and see
/// what a freed client leaves behind. The figures are the ones the C clients take
/// (`bench_common.h`), so every client's rows compare: the spec is `notes/scale-spec.md`.
struct ResourceSnapshot: Sendable {
    /// Bytes in use from malloc, every arena: `mallinfo2().uordblks + mallinfo2().hblkhd` (glibc);
    /// -1 where it cannot be read (see `mallinfo2`).
    var heap: Int
    /// Open file descriptors: the entries of `/proc/self/fd`, less the one used to list them; -1 off Linux.
    var fds: Int
    /// Resident memory, `VmRSS` from `/proc/self/status`, in KiB; -1 off Linux.
    var rssKiB: Int

    /// The process now. The heap is read first, so the listing's own allocations are not in it.
    static func now() -> ResourceSnapshot {
        ResourceSnapshot(heap: heapInUse(), fds: openDescriptors(), rssKiB: residentKiB())
    }

    /// `uordblks` counts the arenas' chunks in use, `hblkhd` the blocks malloc mapped on their own
    /// (large ones, such as a 64 MiB body); together they are what malloc has handed out.
    private static func heapInUse() -> Int {
        guard let mallinfo2 else { return -1 }
        // On the stack, so that reading the heap does not allocate.
        var info: (Int, Int, Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        return withUnsafeMutableBytes(of: &info) { fields in
            _ = mallinfo2(fields.baseAddress!)
            let words = fields.bindMemory(to: Int.self)
            return words[uordblksIndex] + words[hblkhdIndex]
        }
    }

    /// glibc's `struct mallinfo2 mallinfo2(void)`, looked up once; `nil` off glibc (before 2.33) or off x86-64.
    ///
    /// `<malloc.h>` is not in Swift's Glibc module, and a C target to import it would be a change
    /// to Package.swift, so the function is called through `dlsym`. Its result, ten `size_t`s (80
    /// bytes), is returned the x86-64 System V way for a struct that large: in memory the caller
    /// provides, whose address goes in the first argument register (`%rdi`) and comes back in
    /// `%rax`. A C function of one pointer argument returning a pointer has exactly that calling
    /// sequence, so that is the type it is called as. Other architectures pass that address
    /// elsewhere (arm64 in `x8`), so there the heap figure is -1 rather than a wrong call.
    private static let mallinfo2: (@convention(c) (UnsafeMutableRawPointer) -> UnsafeMutableRawPointer?)? = {
        #if arch(x86_64) && canImport(Glibc)
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallinfo2") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutableRawPointer) -> UnsafeMutableRawPointer?).self)
        #else
        return nil
        #endif
    }()

    /// Where `uordblks` and `hblkhd` are in `struct mallinfo2` (`arena, ordblks, smblks, hblks,
    /// hblkhd, usmblks, fsmblks, uordblks, fordblks, keepcost`).
    private static let hblkhdIndex = 4
    private static let uordblksIndex = 7

    /// Counts `/proc/self/fd`'s entries; the directory stream holds one descriptor, which is not the client's.
    private static func openDescriptors() -> Int {
        guard let directory = opendir("/proc/self/fd") else { return -1 }
        defer { closedir(directory) }
        var count = 0
        while let entry = readdir(directory) {
            let isDot = withUnsafeBytes(of: entry.pointee.d_name) { name in
                name[0] == UInt8(ascii: ".") && (name[1] == 0 || (name[1] == UInt8(ascii: ".") && name[2] == 0))
            }
            if !isDot { count += 1 }
        }
        return count - 1
    }

    /// `VmRSS:` from `/proc/self/status` ("VmRSS:     12345 kB").
    private static func residentKiB() -> Int {
        guard let file = fopen("/proc/self/status", "r") else { return -1 }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 256)
        while fgets(&line, Int32(line.count), file) != nil {
            let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            guard text.hasPrefix("VmRSS:") else { continue }
            return Int(text.dropFirst(6).filter(\.isNumber)) ?? -1
        }
        return -1
    }
}
