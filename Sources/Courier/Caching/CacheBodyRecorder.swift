#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Keeps a copy of a response body as the caller reads it, and stores the entry once the body has
/// ended cleanly: the caller is never held back, and a body that fails, is abandoned, or grows
/// past the store's per-entry limit is not stored.
final class CacheBodyRecorder: ResponseBodyObserver {
    private struct State {
        var body = Data()
        var overLimit = false
    }

    private let entry: StoredResponse
    private let store: any CacheStore
    private let state = Protected(State())

    /// Records the body of `entry` (whose own body is empty) into `store`.
    init(entry: StoredResponse, store: any CacheStore) {
        self.entry = entry
        self.store = store
    }

    func received(_ chunk: Data) {
        let limit = store.maxEntryBytes
        state.withLock { state in
            guard !state.overLimit else { return }
            if Int64(state.body.count + chunk.count) > limit {
                state.overLimit = true
                state.body = Data()
            } else {
                state.body.append(chunk)
            }
        }
    }

    func ended(with error: CourierError?) throws(CourierError) {
        guard error == nil else { return }
        let body: Data? = state.withLock { state in
            defer { state.body = Data() }
            return state.overLimit ? nil : state.body
        }
        guard let body else { return }
        var complete = entry
        complete.body = body
        store.save(complete)
    }
}
