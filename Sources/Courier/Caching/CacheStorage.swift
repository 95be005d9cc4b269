#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// Where a ``CacheInterceptor`` keeps responses: in memory, or in a directory that survives the
/// process and may be shared by several. Both are bounded by bytes and evict the least recently
/// used entries first.
public struct CacheStorage: Sendable {
    let store: any CacheStore

    /// In this process's memory, at most `maxBytes` (10 MiB by default); a response larger than
    /// `maxEntryBytes` (a quarter of `maxBytes` by default) is not stored.
    public static func memory(maxBytes: Int64 = 10 << 20, maxEntryBytes: Int64? = nil) -> CacheStorage {
        CacheStorage(store: MemoryCacheStore(maxBytes: maxBytes, maxEntryBytes: maxEntryBytes ?? maxBytes / 4))
    }

    /// In `directory` (made if missing), at most `maxBytes` of entry files (50 MiB by default); a
    /// response larger than `maxEntryBytes` (a quarter of `maxBytes` by default) is not stored.
    ///
    /// Entries are written to a temporary file and renamed into place, so a reader, in this
    /// process or another, sees a whole entry or none, and a crash leaves no half-written entry
    /// to be served. An entry file that fails its checks is treated as a miss and removed.
    public static func directory(
        _ directory: URL, maxBytes: Int64 = 50 << 20, maxEntryBytes: Int64? = nil
    )
        -> CacheStorage
    {
        CacheStorage(
            store: DirectoryCacheStore(
                directory: directory, maxBytes: maxBytes, maxEntryBytes: maxEntryBytes ?? maxBytes / 4))
    }

    /// How many bytes the stored entries take, as the store counts them.
    public var storedBytes: Int64 { store.storedBytes }

    /// Removes every entry.
    public func removeAll() { store.removeAll() }
}

/// A store of `StoredResponse`s by primary key, each key holding one response per variant.
protocol CacheStore: Sendable {
    /// The responses stored for `key`, each one marked as used now.
    func variants(for key: String) -> [StoredResponse]
    /// Stores `entry`, replacing the one with the same key and variant; evicts to stay in bounds.
    func save(_ entry: StoredResponse)
    /// Forgets every response stored for `key`.
    func removeVariants(for key: String)
    /// The most bytes one entry may take (an entry larger is not stored).
    var maxEntryBytes: Int64 { get }
    var storedBytes: Int64 { get }
    func removeAll()
}
