#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Responses in a directory, one file per entry, shared safely by every process that opens it.
///
/// Layout: `<directory>/<sha256(key)>/<sha256(variant)>` for entries, `<directory>/.incoming/`
/// for files being written. A file is written whole, flushed to disk (`fsync`), then renamed over
/// its place (`rename(2)` is atomic), so a reader sees the old entry or the new one, never a
/// mixture, and a crash leaves at most a stray file in `.incoming`. Each file carries its own
/// lengths and an end marker, checked on every read; one that fails is removed and missed.
/// Using an entry updates its modification time, the order eviction follows.
final class DirectoryCacheStore: CacheStore {
    let directory: String
    let maxBytes: Int64
    let maxEntryBytes: Int64
    /// The bytes of entry files, counted by a walk on first need and kept up to date by this
    /// process's saves; other processes' saves are counted at the next walk, made when over bounds.
    private let counted = Protected<Int64?>(nil)

    static let magic = Array("CourierCache/1\n".utf8)
    static let endMarker = Array("\nend\n".utf8)
    /// A file in `.incoming` older than this is a crashed writer's, removed by the next walk.
    static let strayAge: Double = 600

    init(directory: URL, maxBytes: Int64, maxEntryBytes: Int64) {
        self.directory = directory.path
        self.maxBytes = max(0, maxBytes)
        self.maxEntryBytes = maxEntryBytes
    }

    // MARK: Reading

    func variants(for key: String) -> [StoredResponse] {
        let folder = directory + "/" + Self.name(key)
        var entries: [StoredResponse] = []
        for file in Self.files(in: folder) {
            let path = folder + "/" + file
            guard let entry = Self.readEntry(at: path), entry.key == key else {
                unlink(path)
                continue
            }
            utimes(path, nil)
            entries.append(entry)
        }
        return entries
    }

    /// The entry in the file at `path`, or `nil` when it is missing or fails a check.
    static func readEntry(at path: String) -> StoredResponse? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_size > 0, info.st_size < Int.max / 2 else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        var filled = 0
        while filled < bytes.count {
            let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + filled, $0.count - filled) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return nil }
            filled += count
        }
        return decode(bytes)
    }

    /// magic, 8-byte metadata length, metadata JSON (the entry without its body), 8-byte body
    /// length, body, end marker.
    static func encode(_ entry: StoredResponse) -> [UInt8]? {
        var metadata = entry
        metadata.body = Data()
        guard let json = try? JSONEncoder().encode(metadata) else { return nil }
        var bytes = magic
        append(UInt64(json.count), to: &bytes)
        bytes += json
        append(UInt64(entry.body.count), to: &bytes)
        bytes += entry.body
        bytes += endMarker
        return bytes
    }

    static func decode(_ bytes: [UInt8]) -> StoredResponse? {
        var offset = 0
        func take(_ count: Int) -> ArraySlice<UInt8>? {
            guard count >= 0, count <= bytes.count - offset else { return nil }
            defer { offset += count }
            return bytes[offset..<offset + count]
        }
        func length() -> Int? {
            guard let raw = take(8) else { return nil }
            let value = raw.reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            return value <= UInt64(bytes.count) ? Int(value) : nil
        }
        guard take(magic.count).map(Array.init) == magic, let metadataLength = length(),
            let metadata = take(metadataLength),
            var entry = try? JSONDecoder().decode(StoredResponse.self, from: Data(metadata)),
            let bodyLength = length(), let body = take(bodyLength), take(endMarker.count).map(Array.init) == endMarker,
            offset == bytes.count
        else { return nil }
        entry.body = Data(body)
        return entry
    }

    private static func append(_ value: UInt64, to bytes: inout [UInt8]) {
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    // MARK: Writing

    func save(_ entry: StoredResponse) {
        guard entry.size <= maxEntryBytes, let bytes = Self.encode(entry) else { return }
        let folder = directory + "/" + Self.name(entry.key)
        let incoming = directory + "/.incoming"
        guard Self.makeDirectory(directory, withParents: true), Self.makeDirectory(folder), Self.makeDirectory(incoming)
        else { return }
        let target = folder + "/" + Self.name(entry.variantKey)
        let temporary = incoming + "/\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        let replaced = PosixFile.size(of: target)
        guard Self.writeDurably(bytes, to: temporary), rename(temporary, target) == 0 else {
            unlink(temporary)
            return
        }
        let total = counted.withLock { counted -> Int64? in
            guard let known = counted else { return nil }
            counted = known - (replaced ?? 0) + Int64(bytes.count)
            return counted
        }
        if (total ?? walk().bytes) > maxBytes { evict() }
    }

    private static func writeDurably(_ bytes: [UInt8], to path: String) -> Bool {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return false }
        guard bytes.withUnsafeBytes({ PosixFile.writeAll($0, to: descriptor) }) else {
            close(descriptor)
            return false
        }
        let synced = fsync(descriptor) == 0
        return close(descriptor) == 0 && synced
    }

    func removeVariants(for key: String) {
        let folder = directory + "/" + Self.name(key)
        var freed: Int64 = 0
        for file in Self.files(in: folder) {
            let path = folder + "/" + file
            freed += PosixFile.size(of: path) ?? 0
            unlink(path)
        }
        rmdir(folder)
        counted.withLock { counted in counted = counted.map { $0 - freed } }
    }

    func removeAll() {
        for folder in Self.files(in: directory) where folder != ".incoming" {
            let path = directory + "/" + folder
            for file in Self.files(in: path) { unlink(path + "/" + file) }
            rmdir(path)
        }
        counted.withLock { $0 = 0 }
    }

    var storedBytes: Int64 {
        if let known = counted.withLock({ $0 }) { return known }
        return walk().bytes
    }

    // MARK: Bounds

    private struct EntryFile {
        let path: String
        let size: Int64
        let modified: Double
    }

    /// Every entry file, counted; stray files in `.incoming` past `strayAge` are removed on the way.
    @discardableResult
    private func walk() -> (bytes: Int64, files: [EntryFile]) {
        var files: [EntryFile] = []
        let now = Date().timeIntervalSince1970
        for folder in Self.files(in: directory) {
            let folderPath = directory + "/" + folder
            for file in Self.files(in: folderPath) {
                let path = folderPath + "/" + file
                var info = stat()
                guard stat(path, &info) == 0 else { continue }
                #if canImport(Darwin)
                let time = info.st_mtimespec
                #else
                let time = info.st_mtim
                #endif
                let modified = Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
                if folder == ".incoming" {
                    if now - modified > Self.strayAge { unlink(path) }
                    continue
                }
                files.append(EntryFile(path: path, size: Int64(info.st_size), modified: modified))
            }
        }
        let bytes = files.reduce(0) { $0 + $1.size }
        counted.withLock { $0 = bytes }
        return (bytes, files)
    }

    /// Removes the least recently used entry files until the rest fit in `maxBytes`.
    private func evict() {
        var (bytes, files) = walk()
        files.sort { $0.modified < $1.modified }
        for file in files where bytes > maxBytes {
            if unlink(file.path) == 0 { bytes -= file.size }
            rmdir(String(file.path[..<file.path.lastIndex(of: "/")!]))
        }
        counted.withLock { $0 = bytes }
    }

    // MARK: Files

    /// A file name for `text`: its SHA-256 in hex.
    static func name(_ text: String) -> String {
        TextFormat.hex(bytes: SHA256Digest.digest(Array(text.utf8)))
    }

    private static func makeDirectory(_ path: String, withParents: Bool = false) -> Bool {
        if mkdir(path, 0o700) == 0 || errno == EEXIST { return true }
        guard withParents, errno == ENOENT else { return false }
        return (try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)) != nil
    }

    /// The names in the directory at `path`, without `.` and `..`; none when it cannot be read.
    static func files(in path: String) -> [String] {
        guard let handle = opendir(path) else { return [] }
        defer { closedir(handle) }
        var names: [String] = []
        while let item = readdir(handle) {
            let name = withUnsafeBytes(of: item.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}
