import Courier
import CourierTestServer
import Foundation
import HTTPTypes
import Testing

/// Many sends at once, and a long run of sends with faults mixed in: every call ends exactly once,
/// with a response or a typed error within its deadline, and the client keeps working afterwards.
@Suite("Transport conformance: load and faults", .timeLimit(.minutes(3)))
struct LoadConformanceTests {
    @Test(arguments: TransportUnderTest.all)
    func aThousandConcurrentSendsThroughOneClientAllComplete(transport: TransportUnderTest) async throws {
        try await transport.withClient { client, server in
            let answered = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<1_000 {
                    let request = try server.request("/echo") {
                        Query("n", String(index))
                        Timeout(.seconds(120))
                    }
                    group.addTask {
                        let response = try await client.send(request)
                        #expect(response.status == .ok)
                        return try echoed(response).query == "n=\(index)" ? 1 : 0
                    }
                }
                return try await group.reduce(0, +)
            }
            #expect(answered == 1_000)
        }
    }

    /// What one call of the soak asked for, and the errors that are right for it besides `.timedOut`:
    /// the deadline covers the whole exchange, waiting for a connection held by a stall included.
    struct SoakCall: Sendable {
        let path: String
        let allowed: Set<CourierError.Code>
        var expectsResponse: Bool { allowed.isEmpty }

        static let mix: [SoakCall] = [
            SoakCall(path: "/anything", allowed: []),
            SoakCall(path: "/bytes/20000", allowed: []),
            SoakCall(path: "/fault/reset/afterRequest", allowed: [.invalidResponse]),
            SoakCall(path: "/fault/reset/midResponseBody", allowed: [.invalidResponse]),
            SoakCall(path: "/fault/close/midResponseBody", allowed: [.invalidResponse]),
            SoakCall(path: "/fault/stall/atResponseStart", allowed: [.timedOut]),
            SoakCall(path: "/fault/stall/midResponseBody", allowed: [.timedOut]),
        ]
    }

    @Test(arguments: TransportUnderTest.all)
    func aSoakWithResetsStallsAndTruncationsEndsEveryCallOnceThenKeepsWorking(
        transport: TransportUnderTest
    ) async throws {
        var generator = SeededGenerator(seed: 0xC0FFEE)
        let plan = (0..<160).map { _ in SoakCall.mix.randomElement(using: &generator)! }
        let deadline = Duration.seconds(2)
        // The deadline plus room for a loaded machine, far below the suite's limit: past it is a hang.
        let hangBound = deadline + .seconds(10)
        try await transport.withClient { client, server in
            let outcomes = try await withThrowingTaskGroup(of: String?.self) { group in
                var problems: [String] = []
                var inFlight = 0
                for call in plan {
                    if inFlight == 16, let problem = try await group.next() {
                        inFlight -= 1
                        if let problem { problems.append(problem) }
                    }
                    let request = try server.request(call.path) { Timeout(deadline) }
                    inFlight += 1
                    group.addTask {
                        let started = ContinuousClock.now
                        let problem: String?
                        do {
                            let response = try await client.send(request)
                            problem =
                                call.expectsResponse && response.status == .ok
                                ? nil : "\(call.path): answered \(response.status)"
                        } catch let error as CourierError {
                            problem =
                                call.allowed.contains(error.code) || error.code == .timedOut
                                ? nil : "\(call.path): \(error.code): \(error.message)"
                        } catch {
                            problem = "\(call.path): untyped \(error)"
                        }
                        let took = ContinuousClock.now - started
                        return took > hangBound ? "\(call.path): took \(took)" : problem
                    }
                }
                for try await problem in group {
                    if let problem { problems.append(problem) }
                }
                return problems
            }
            #expect(outcomes == [])
            for index in 0..<20 {
                let response = try await client.send(try server.request("/echo") { Query("after", String(index)) })
                #expect(response.status == .ok)
            }
        }
    }
}

/// A small deterministic generator (SplitMix64), so a failing soak can be replayed exactly.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
