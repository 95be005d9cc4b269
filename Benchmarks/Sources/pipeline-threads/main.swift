import Courier
import Foundation
import PipelineFixtures

// Where does a send run? Records the thread of the caller, of each interceptor and of the transport,
// for a caller on an actor pinned to a thread of its own and for one on the global concurrent pool,
// then times sends from each kind of caller (and from the main actor) to price the hops.
// Everything is in memory: no I/O, no sleeping.

guard let url = URL(string: "http://127.0.0.1/small.json") else { fatalError("the URL does not parse") }
let request = Request(url: url)
let log = ThreadLog()
let recording = Client.recording(into: log)
let pinned = PinnedActor()
let pinnedThread = pinned.executor.thread

func show(_ title: String, _ entries: [ThreadLog.Entry]) {
    print("\n\(title)")
    var names: [UInt: String] = [pinnedThread: "pinned actor thread"]
    var poolThreads = 0
    for entry in entries {
        let name = names[entry.thread] ?? {
            guard !entry.isMain else { return "main thread" }
            poolThreads += 1
            return "pool thread \(poolThreads)"
        }()
        names[entry.thread] = name
        let hop = entry.thread == entries[0].thread ? "" : "  <- not the caller's thread"
        print("  \(entry.stage.padding(toLength: 58, withPad: " ", startingAt: 0)) \(name)\(hop)")
    }
}

try await pinned.run { _ in try await Probe.trace(recording, request, log: log, caller: "pinned actor") }
show("Caller on an actor pinned to its own thread:", log.drain())
try await Task.detached { try await Probe.trace(recording, request, log: log, caller: "global pool") }.value
show("Caller on the global concurrent pool:", log.drain())

// The price: time per send through 4 no-op interceptors, from each kind of caller.
let timed = Client(transport: InMemoryTransport(), interceptors: .noops(4))
let sends = 100_000
func nanoseconds(_ duration: Duration) -> Int {
    Int((Double(duration.components.seconds) * 1e9 + Double(duration.components.attoseconds) / 1e9) / Double(sends))
}

_ = try await Task.detached { try await Probe.time(timed, request, count: sends) }.value
let timings = [
    ("global-pool", try await Task.detached { try await Probe.time(timed, request, count: sends) }.value),
    ("pinned-actor", try await pinned.run { _ in try await Probe.time(timed, request, count: sends) }),
    ("main-actor", try await Probe.time(timed, request, count: sends)),
]
print("\n\(sends) sends through 4 no-op interceptors to an in-memory transport:")
for (caller, duration) in timings {
    print("  from the \(caller.replacingOccurrences(of: "-", with: " ")): \(nanoseconds(duration)) ns per send")
}
for (caller, duration) in timings {
    print("RESULT scenario=send-from-\(caller) ns=\(nanoseconds(duration))")
}
