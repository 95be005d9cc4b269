import Foundation
import HTTPTypes
import Testing

@testable import Courier

#if canImport(Glibc)
import Glibc
#endif

/// The two stores: bounds, least-recently-used eviction, and the directory store's file safety.
@Suite struct CacheStoreTests {
    static func entry(_ path: String, bytes: Int, variant: String? = nil) -> StoredResponse {
        let url = URL(string: "https://example.com/\(path)")!
        let response = Response(
            status: .ok, headerFields: [.cacheControl: "max-age=60"], request: Request(method: .get, url: url))
        return StoredResponse(
            key: CacheInterceptor.key(for: url), response: response, body: Data(repeating: 0x61, count: bytes),
            varying: variant.map { ["accept": $0] } ?? [:], requestTime: Date(), responseTime: Date())
    }

    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("courier-cache-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func stores(maxBytes: Int64) throws -> [(String, any CacheStore, URL?)] {
        let directory = try temporaryDirectory()
        return [
            ("memory", MemoryCacheStore(maxBytes: maxBytes, maxEntryBytes: maxBytes / 2), nil),
            (
                "directory", DirectoryCacheStore(directory: directory, maxBytes: maxBytes, maxEntryBytes: maxBytes / 2),
                directory
            ),
        ]
    }

    @Test func bothStoresKeepVariantsReplaceTheSameOneAndForgetAKey() throws {
        for (name, store, directory) in try Self.stores(maxBytes: 1 << 20) {
            defer { directory.map { try? FileManager.default.removeItem(at: $0) } }
            store.save(Self.entry("a", bytes: 10, variant: "json"))
            store.save(Self.entry("a", bytes: 20, variant: "xml"))
            store.save(Self.entry("a", bytes: 30, variant: "xml"))
            let key = Self.entry("a", bytes: 0).key
            #expect(store.variants(for: key).map(\.body.count).sorted() == [10, 30], "\(name)")
            store.removeVariants(for: key)
            #expect(store.variants(for: key).isEmpty, "\(name)")
        }
    }

    @Test func bothStoresEvictTheLeastRecentlyUsedFirstAndRefuseAnEntryOverTheLimit() throws {
        let one = Self.entry("1", bytes: 1000).size
        for (name, store, directory) in try Self.stores(maxBytes: one * 3 + one / 2) {
            defer { directory.map { try? FileManager.default.removeItem(at: $0) } }
            for path in ["1", "2", "3"] {
                store.save(Self.entry(path, bytes: 1000))
                // The directory store orders by modification time, which has a resolution of its own.
                Thread.sleep(forTimeInterval: 0.02)
            }
            _ = store.variants(for: Self.entry("1", bytes: 0).key)  // 1 is now the most recently used
            Thread.sleep(forTimeInterval: 0.02)
            store.save(Self.entry("4", bytes: 1000))
            let left = ["1", "2", "3", "4"].filter { !store.variants(for: Self.entry($0, bytes: 0).key).isEmpty }
            #expect(left == ["1", "3", "4"], "\(name)")
            #expect(store.storedBytes <= one * 3 + one / 2, "\(name)")
            store.save(Self.entry("huge", bytes: Int(one * 2)))
            #expect(store.variants(for: Self.entry("huge", bytes: 0).key).isEmpty, "\(name)")
        }
    }

    @Test func theDirectoryStoreSurvivesAReopenAndCountsWhatItFinds() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        DirectoryCacheStore(directory: directory, maxBytes: 1 << 20, maxEntryBytes: 1 << 19)
            .save(Self.entry("kept", bytes: 100))
        let reopened = DirectoryCacheStore(directory: directory, maxBytes: 1 << 20, maxEntryBytes: 1 << 19)
        let found = reopened.variants(for: Self.entry("kept", bytes: 0).key)
        #expect(found.first?.body == Data(repeating: 0x61, count: 100))
        #expect(found.first?.headerFields[.cacheControl] == "max-age=60")
        #expect(reopened.storedBytes > 100)
    }

    @Test func aTruncatedOrForeignEntryFileIsMissedAndRemoved() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = DirectoryCacheStore(directory: directory, maxBytes: 1 << 20, maxEntryBytes: 1 << 19)
        let entry = Self.entry("torn", bytes: 5000)
        let path =
            directory.path + "/" + DirectoryCacheStore.name(entry.key) + "/"
            + DirectoryCacheStore.name(entry.variantKey)
        let whole = try #require(DirectoryCacheStore.encode(entry))
        for damaged in [Array(whole.prefix(whole.count - 1)), Array(whole.prefix(40)), Array("not a cache file".utf8)] {
            store.save(entry)
            try Data(damaged).write(to: URL(fileURLWithPath: path))
            #expect(store.variants(for: entry.key).isEmpty)
            #expect(!FileManager.default.fileExists(atPath: path), "a damaged entry is removed")
        }
    }

    @Test func aCrashedWritersFileIsNeverServedAndIsSweptOnceOld() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = DirectoryCacheStore(directory: directory, maxBytes: 4000, maxEntryBytes: 2000)
        let entry = Self.entry("crash", bytes: 1000)
        // What a writer killed before its rename leaves: half a file in .incoming.
        try FileManager.default.createDirectory(
            atPath: directory.path + "/.incoming", withIntermediateDirectories: true)
        let stray = directory.path + "/.incoming/12345-1"
        let bytes = try #require(DirectoryCacheStore.encode(entry))
        try Data(bytes.prefix(bytes.count / 2)).write(to: URL(fileURLWithPath: stray))
        #expect(store.variants(for: entry.key).isEmpty)
        var old = [timeval(tv_sec: 1_000_000, tv_usec: 0), timeval(tv_sec: 1_000_000, tv_usec: 0)]
        #expect(utimes(stray, &old) == 0)
        for index in 0..<4 { store.save(Self.entry("fill\(index)", bytes: 1000)) }  // goes over bounds: a walk
        #expect(!FileManager.default.fileExists(atPath: stray))
    }

    @Test func concurrentWritersAndReadersOfOneKeyOnlyEverSeeWholeEntries() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let sizes = [10, 70_000, 3000]
        let key = Self.entry("shared", bytes: 0).key
        await withTaskGroup(of: Void.self) { group in
            for writer in 0..<3 {
                group.addTask {
                    // A store per task, as separate processes have.
                    let store = DirectoryCacheStore(directory: directory, maxBytes: 1 << 24, maxEntryBytes: 1 << 20)
                    for round in 0..<60 { store.save(Self.entry("shared", bytes: sizes[(writer + round) % 3])) }
                }
            }
            group.addTask {
                let store = DirectoryCacheStore(directory: directory, maxBytes: 1 << 24, maxEntryBytes: 1 << 20)
                for _ in 0..<300 {
                    for found in store.variants(for: key) {
                        #expect(sizes.contains(found.body.count) && found.body.allSatisfy { $0 == 0x61 })
                    }
                }
            }
        }
    }
}
