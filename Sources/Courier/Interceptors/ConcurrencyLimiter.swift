/// The bookkeeping of `ConcurrencyLimitInterceptor` as a pure state machine: who holds a slot,
/// who waits, and who is let in when a slot frees.
///
/// Waiters are admitted in arrival order, skipping only those whose host is at its own limit,
/// as OkHttp's `Dispatcher` promotes calls: a busy host never holds up requests to other hosts.
struct ConcurrencyLimiter: Sendable {
    let maxTotal: Int
    let maxPerHost: Int
    private(set) var running = 0
    private(set) var runningPerHost: [String: Int] = [:]
    private(set) var waiting: [(id: UInt64, host: String)] = []

    init(maxTotal: Int, maxPerHost: Int) {
        self.maxTotal = max(1, maxTotal)
        self.maxPerHost = max(1, maxPerHost)
    }

    /// Takes a slot for `host` at once when one is free and nobody eligible waits; otherwise
    /// queues `id` and returns `false`.
    mutating func acquire(id: UInt64, host: String) -> Bool {
        let queuedForHost = waiting.contains { $0.host == host }
        if !queuedForHost, hasRoom(for: host) {
            start(host)
            return true
        }
        waiting.append((id, host))
        return false
    }

    /// Frees the slot `host` held and admits waiters that now fit, oldest first; returns their ids.
    mutating func release(host: String) -> [UInt64] {
        running -= 1
        let remaining = (runningPerHost[host] ?? 1) - 1
        runningPerHost[host] = remaining > 0 ? remaining : nil
        var admitted: [UInt64] = []
        var index = waiting.startIndex
        while index < waiting.endIndex, running < maxTotal {
            let waiter = waiting[index]
            if hasRoom(for: waiter.host) {
                waiting.remove(at: index)
                start(waiter.host)
                admitted.append(waiter.id)
            } else {
                index += 1
            }
        }
        return admitted
    }

    /// Removes a waiter that gave up; `false` when it is not waiting (already admitted).
    mutating func cancel(id: UInt64) -> Bool {
        guard let index = waiting.firstIndex(where: { $0.id == id }) else { return false }
        waiting.remove(at: index)
        return true
    }

    private func hasRoom(for host: String) -> Bool {
        running < maxTotal && (runningPerHost[host] ?? 0) < maxPerHost
    }

    private mutating func start(_ host: String) {
        running += 1
        runningPerHost[host, default: 0] += 1
    }
}
