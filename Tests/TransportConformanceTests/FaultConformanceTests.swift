import Courier
import CourierTestServer
import Foundation
import HTTPTypes
import Testing

/// Every fault the server can inject ends in a typed error within the deadline: no crash, no hang.
///
/// Where the point is which error a fault causes, the client's timeout is far longer than any
/// reply takes even on a loaded machine, so it never wins a race against the server's bytes;
/// where the point is that the timeout fires, the server stalls for good, so speed never decides.
@Suite("Transport conformance: faults", .timeLimit(.minutes(1)))
struct FaultConformanceTests {
    /// Longer than any fault takes to show on a loaded machine: reaching it is a wrong outcome, not a slow one.
    static let generousTimeout = Duration.seconds(20)
    /// The bound that proves no hang: above `generousTimeout`, well below the suite's time limit.
    static let hangBound = Duration.seconds(40)

    struct Case: Sendable, CustomStringConvertible {
        let effect: ConnectionFault.Effect
        let phase: ConnectionFault.Phase
        let expected: Set<CourierError.Code>
        var description: String { "\(effect) \(phase)" }
    }

    static let routeFaults: [Case] = [
        Case(effect: .close, phase: .afterRequest, expected: [.invalidResponse]),
        Case(effect: .reset, phase: .afterRequest, expected: [.invalidResponse]),
        Case(effect: .malformed, phase: .afterRequest, expected: [.invalidResponse]),
        Case(effect: .close, phase: .atResponseStart, expected: [.invalidResponse]),
        Case(effect: .reset, phase: .atResponseStart, expected: [.invalidResponse]),
        Case(effect: .malformed, phase: .atResponseStart, expected: [.invalidResponse]),
        Case(effect: .close, phase: .midResponseBody, expected: [.invalidResponse]),
        Case(effect: .reset, phase: .midResponseBody, expected: [.invalidResponse]),
        Case(effect: .close, phase: .midRequestBody, expected: [.invalidResponse, .cannotConnect]),
        Case(effect: .reset, phase: .midRequestBody, expected: [.invalidResponse, .cannotConnect]),
        Case(effect: .stall, phase: .afterRequest, expected: [.timedOut]),
        Case(effect: .stall, phase: .atResponseStart, expected: [.timedOut]),
        Case(effect: .stall, phase: .midResponseBody, expected: [.timedOut]),
        Case(effect: .stall, phase: .midRequestBody, expected: [.timedOut]),
        Case(effect: .malformed, phase: .midRequestBody, expected: [.invalidResponse, .cannotConnect]),
        Case(effect: .malformed, phase: .midResponseBody, expected: [.invalidResponse]),
    ]

    /// Each transport with each fault, but a response cut short at its start for a transport that
    /// cannot survive it (``Capability/survivesHeadCutShort``).
    static var cases: [(TransportUnderTest, Case)] {
        TransportUnderTest.all.flatMap { transport in
            routeFaults.filter { fault in
                !(fault.effect == .close && fault.phase == .atResponseStart)
                    || transport.lacks[.survivesHeadCutShort] == nil
            }.map { (transport, $0) }
        }
    }

    @Test(arguments: cases)
    func aFaultEndsInATypedErrorWithinTheDeadline(transport: TransportUnderTest, fault: Case) async throws {
        try await transport.withClient { client, server in
            let upload = fault.phase == .midRequestBody
            let request = try server.request("/fault/\(fault.effect.rawValue)/\(fault.phase.rawValue)") {
                Timeout(fault.effect == .stall ? .seconds(1) : Self.generousTimeout)
                if upload {
                    Method.POST
                    RequestBody.data(Data(count: 4_000_000))
                }
            }
            let started = ContinuousClock.now
            let error = await courierError { try await client.send(request) }
            #expect(error.map { fault.expected.contains($0.code) } == true, "\(fault): \(String(describing: error))")
            #expect(ContinuousClock.now - started < Self.hangBound)
        }
    }

    @Test(arguments: TransportUnderTest.all, ConnectionFault.Effect.allCases)
    func aFaultAtConnectEndsInATypedError(transport: TransportUnderTest, effect: ConnectionFault.Effect) async throws {
        try await transport.withClient(faultPlan: [ConnectionFault(effect, at: .atConnect)]) { client, server in
            // A stall must time out on the connection, not before it is set up: AsyncHTTPClient keeps a
            // connection that was still being made when its request's deadline passed, and the request
            // after it would then go to the stalled server. 10 s covers the busiest event loop.
            let request = try server.request("/echo/x") {
                Timeout(effect == .stall ? .seconds(10) : Self.generousTimeout)
            }
            let started = ContinuousClock.now
            let error = await courierError { try await client.send(request) }
            let expected: Set<CourierError.Code> = effect == .stall ? [.timedOut] : [.invalidResponse, .cannotConnect]
            #expect(error.map { expected.contains($0.code) } == true, "\(effect): \(String(describing: error))")
            #expect(ContinuousClock.now - started < Self.hangBound)
            let recovered = try await client.send(try server.request("/echo/after") { Timeout(Self.generousTimeout) })
            #expect(recovered.status == .ok)
        }
    }

    static let rawCases: [(String, CourierError.Code)] = [
        ("malformed-status-line", .invalidResponse),
        ("malformed-chunk-size", .invalidResponse),
        ("oversized-headers?size=200000", .limitExceeded),
        ("content-length-too-long", .invalidResponse),
        ("conflicting-content-length", .invalidResponse),
        ("chunked-and-content-length", .invalidResponse),
        ("closes-mid-headers", .invalidResponse),
    ]

    /// Each transport with each raw case, but a head cut short for a transport that cannot survive it.
    static var rawCaseArguments: [(TransportUnderTest, String)] {
        TransportUnderTest.all.flatMap { transport in
            rawCases.map(\.0).filter { $0 != "closes-mid-headers" || transport.lacks[.survivesHeadCutShort] == nil }
                .map { (transport, $0) }
        }
    }

    @Test(arguments: rawCaseArguments)
    func aMalformedResponseIsAnInvalidResponse(transport: TransportUnderTest, name: String) async throws {
        let expected = Self.rawCases.first { $0.0 == name }?.1
        try await transport.withClient { client, server in
            let request = try server.request("/raw/\(name)") { Timeout(Self.generousTimeout) }
            let error = await courierError { try await client.send(request) }
            #expect(error?.code == expected, "\(name): \(String(describing: error))")
        }
    }

    @Test(arguments: TransportUnderTest.all)
    func aSlowDripWithinTheDeadlineCompletesAndOnePastItTimesOut(transport: TransportUnderTest) async throws {
        try await transport.withClient { client, server in
            let within = try await client.send(
                try server.request("/drip?numbytes=20&duration_ms=300") { Timeout(Self.generousTimeout) })
            #expect(within.body.count == 20)
            let started = ContinuousClock.now
            let error = await courierError {
                try await client.send(
                    try server.request("/drip?numbytes=100&duration_ms=60000") { Timeout(.seconds(1)) })
            }
            #expect(error?.code == .timedOut)
            #expect(
                ContinuousClock.now - started < .seconds(30), "the timeout ends the transfer long before the drip would"
            )
        }
    }
}
