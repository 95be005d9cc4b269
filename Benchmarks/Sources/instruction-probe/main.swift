import Courier
import CourierCurl
import Dispatch
import FoundationEssentials
import HTTPTypes
import PipelineFixtures

#if canImport(Glibc)
import Glibc
#endif

// The courier-curl rows' work (`Client.send` through no-op interceptors over CurlTransport,
// decompression on, a connection per request in flight), for counting instructions under
// callgrind (scripts/instructions.sh) rather than timing it: a count the host barely moves.
//
// Only Courier and libcurl are in this binary, and the main thread waits on a semaphore: valgrind
// (3.19 and 3.24 alike) stops with an internal error when a program whose main thread is parked by
// `dispatchMain()`, as Swift's asynchronous top-level code parks it, starts another thread.
//
// Usage: instruction-probe URL COUNT IN_FLIGHT INTERCEPTORS

let arguments = CommandLine.arguments
guard arguments.count == 5, let url = URL(string: arguments[1]), let count = Int(arguments[2]),
    let inFlight = Int(arguments[3]), inFlight > 0, let interceptorCount = Int(arguments[4])
else {
    print("usage: instruction-probe URL COUNT IN_FLIGHT INTERCEPTORS")
    exit(2)
}

var configuration = CurlTransport.Configuration()
configuration.maxConnectionsPerHost = inFlight
configuration.maxIdleConnections = max(configuration.maxIdleConnections, inFlight)
configuration.decompression = true
let transport = CurlTransport(configuration: configuration)
let client = Client(transport: transport, interceptors: .noops(interceptorCount))
let request = Request(url: url)

/// The failures, written by the detached task before it signals `done` and read after the wait.
final class Outcome: @unchecked Sendable { var failures = 0 }
let outcome = Outcome()
let done = DispatchSemaphore(value: 0)
Task.detached {
    let failures = await withTaskGroup(of: Int.self) { group in
        for worker in 0..<inFlight {
            let share = count / inFlight + (worker < count % inFlight ? 1 : 0)
            group.addTask {
                var failed = 0
                for _ in 0..<share {
                    do {
                        let response = try await client.send(request)
                        if response.status != .ok || response.body.isEmpty { failed += 1 }
                    } catch {
                        failed += 1
                    }
                }
                return failed
            }
        }
        var total = 0
        for await failed in group { total += failed }
        return total
    }
    await transport.shutdown()
    outcome.failures = failures
    done.signal()
}
done.wait()
print("RESULT requests=\(count) failed=\(outcome.failures)")
exit(outcome.failures == 0 ? 0 : 1)
