import Courier
import CourierCInterceptors

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The JSON configuration of the built-in `cache` interceptor (`CacheInterceptor`): a
/// `directory` to keep responses in (absent: in memory), `max_bytes` (10 MiB in memory, 50 MiB
/// in a directory) and `max_entry_bytes` (a quarter of `max_bytes`).
struct CacheConfiguration: Decodable {
    var name: String?
    var directory: String?
    var maxBytes: Int64?
    var maxEntryBytes: Int64?

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case name
        case directory
        case maxBytes = "max_bytes"
        case maxEntryBytes = "max_entry_bytes"
    }

    init() {}

    init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownMembers(besides: CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decodeIfPresent(String.self, forKey: .name)
        directory = try container.decodeIfPresent(String.self, forKey: .directory)
        if directory?.isEmpty == true {
            throw DecodingError.dataCorruptedError(
                forKey: .directory, in: container, debugDescription: "must name a directory")
        }
        for (key, value) in [(CodingKeys.maxBytes, \Self.maxBytes), (.maxEntryBytes, \.maxEntryBytes)] {
            guard let bytes = try container.decodeIfPresent(Int64.self, forKey: key) else { continue }
            guard bytes >= 0 else {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: container, debugDescription: "must be 0 or more")
            }
            self[keyPath: value] = bytes
        }
    }

    /// The storage these settings describe.
    var storage: CacheStorage {
        if let directory {
            return .directory(
                URL(fileURLWithPath: directory), maxBytes: maxBytes ?? 50 << 20, maxEntryBytes: maxEntryBytes)
        }
        return .memory(maxBytes: maxBytes ?? 10 << 20, maxEntryBytes: maxEntryBytes)
    }
}
