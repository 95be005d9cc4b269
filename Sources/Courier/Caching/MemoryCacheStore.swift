/// Responses in memory, bounded by bytes; the least recently used go first.
final class MemoryCacheStore: CacheStore {
    private struct Slot {
        var entry: StoredResponse
        var lastUse: UInt64
    }

    private struct State {
        var slots: [String: [String: Slot]] = [:]
        var bytes: Int64 = 0
        var clock: UInt64 = 0
    }

    let maxBytes: Int64
    let maxEntryBytes: Int64
    private let state = Protected(State())

    init(maxBytes: Int64, maxEntryBytes: Int64) {
        self.maxBytes = max(0, maxBytes)
        self.maxEntryBytes = maxEntryBytes
    }

    func variants(for key: String) -> [StoredResponse] {
        state.withLock { state in
            guard var slots = state.slots[key] else { return [] }
            state.clock += 1
            for variant in slots.keys { slots[variant]!.lastUse = state.clock }
            state.slots[key] = slots
            return slots.values.map(\.entry)
        }
    }

    func save(_ entry: StoredResponse) {
        let size = entry.size
        guard size <= maxEntryBytes else { return }
        state.withLock { state in
            state.clock += 1
            if let old = state.slots[entry.key]?[entry.variantKey] { state.bytes -= old.entry.size }
            state.slots[entry.key, default: [:]][entry.variantKey] = Slot(entry: entry, lastUse: state.clock)
            state.bytes += size
            guard state.bytes > maxBytes else { return }
            let byAge = state.slots.flatMap { key, variants in variants.map { (key, $0.key, $0.value.lastUse) } }
                .sorted { $0.2 < $1.2 }
            for (key, variant, _) in byAge where state.bytes > maxBytes {
                if let removed = state.slots[key]?.removeValue(forKey: variant) { state.bytes -= removed.entry.size }
                if state.slots[key]?.isEmpty == true { state.slots[key] = nil }
            }
        }
    }

    func removeVariants(for key: String) {
        state.withLock { state in
            for slot in state.slots.removeValue(forKey: key)?.values ?? [:].values { state.bytes -= slot.entry.size }
        }
    }

    var storedBytes: Int64 { state.withLock { $0.bytes } }

    func removeAll() { state.withLock { $0 = State() } }
}
