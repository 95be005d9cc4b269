import Courier
import CourierTestServer
import Foundation
import Testing

/// Timeouts and cancellation end a send close to when they should, on both transports: never
/// before the deadline, and after it within a bound that a loaded 2-core machine meets, scaled by a
/// round trip measured in the same test.
@Suite("Transport conformance: time bounds", .timeLimit(.minutes(2)))
struct TimeBoundConformanceTests {
    static let deadline = Duration.seconds(1)
    /// Timers may fire a hair early by the clock the test reads.
    static let early = Duration.milliseconds(50)

    /// How late past its deadline a send may end: two seconds plus twenty round trips as measured now.
    static func lateness(_ client: Client, _ server: TestServer) async throws -> Duration {
        var trips: [Duration] = []
        for _ in 0..<5 {
            let started = ContinuousClock.now
            _ = try await client.send(try server.request("/echo/calibrate"))
            trips.append(ContinuousClock.now - started)
        }
        return .seconds(2) + trips.sorted()[2] * 20
    }

    /// Sends `request`, expecting `code` between `deadline` and `deadline + lateness` after the start.
    private func expectEnds(
        _ code: CourierError.Code, sending request: Request, through client: Client,
        after deadline: Duration, within lateness: Duration
    ) async {
        let started = ContinuousClock.now
        let error = await courierError { try await client.send(request) }
        let took = ContinuousClock.now - started
        #expect(error?.code == code, "\(String(describing: error))")
        #expect(took >= deadline - Self.early, "ended after \(took), before its deadline \(deadline)")
        #expect(took <= deadline + lateness, "ended after \(took), more than \(lateness) past its deadline \(deadline)")
    }

    @Test(arguments: TransportUnderTest.all)
    func aStalledHeadTimesOutAtTheDeadline(transport: TransportUnderTest) async throws {
        try await transport.withClient { client, server in
            let lateness = try await Self.lateness(client, server)
            await expectEnds(
                .timedOut, sending: try server.request("/fault/stall/afterRequest") { Timeout(Self.deadline) },
                through: client, after: Self.deadline, within: lateness)
        }
    }

    @Test(arguments: TransportUnderTest.all)
    func aStalledBodyTimesOutAtTheDeadline(transport: TransportUnderTest) async throws {
        try await transport.withClient { client, server in
            let lateness = try await Self.lateness(client, server)
            await expectEnds(
                .timedOut, sending: try server.request("/fault/stall/midResponseBody") { Timeout(Self.deadline) },
                through: client, after: Self.deadline, within: lateness)
        }
    }

    @Test(arguments: TransportUnderTest.all)
    func aStalledUploadTimesOutAtTheDeadline(transport: TransportUnderTest) async throws {
        try await transport.withClient { client, server in
            let lateness = try await Self.lateness(client, server)
            let request = try server.request("/fault/stall/midRequestBody") {
                Method.POST
                Timeout(Self.deadline)
                RequestBody.data(Data(count: 8_000_000))
            }
            await expectEnds(.timedOut, sending: request, through: client, after: Self.deadline, within: lateness)
        }
    }

    @Test(arguments: TransportUnderTest.all(with: .connectTimeout))
    func aConnectionThatIsNeverAcceptedTimesOutAtTheConnectTimeout(transport: TransportUnderTest) async throws {
        let listener = try SilentListener()
        defer { listener.close() }
        // Calibrated on a client of its own: a 1 s connect timeout could itself expire on a busy machine.
        let lateness = try await transport.withClient { client, server in try await Self.lateness(client, server) }
        let request = try Request {
            BaseURL("http://127.0.0.1:\(listener.port)/")
            Timeout(.seconds(30))
        }
        var configuration = Client.Configuration()
        configuration.connectTimeout = Self.deadline
        // Nothing between making the transport and shutting it down throws: an AsyncHTTPClient
        // dropped without a shutdown traps.
        let made = transport.makeWith(TransportSettings(connectTimeout: Self.deadline))
        await expectEnds(
            .timedOut, sending: request, through: Client(transport: made, configuration: configuration),
            after: Self.deadline, within: lateness)
        await transport.shutdown(made)
    }

    @Test(arguments: TransportUnderTest.all)
    func cancellingMidBodyEndsTheSendPromptly(transport: TransportUnderTest) async throws {
        try await transport.withClient { client, server in
            let lateness = try await Self.lateness(client, server)
            let response = try await client.stream(try server.request("/drip?numbytes=1000&duration_ms=60000&chunk=10"))
            let body = try #require(response.bodyStream)
            let reading = Task {
                var received = 0
                for try await chunk in body { received += chunk.count }
                return received
            }
            try await Task.sleep(for: .milliseconds(500))
            let cancelled = ContinuousClock.now
            reading.cancel()
            let error = await courierError { _ = try await reading.value }
            let took = ContinuousClock.now - cancelled
            #expect(error?.code == .cancelled, "\(String(describing: error))")
            #expect(took <= lateness, "ended \(took) after the cancellation")
        }
    }
}

/// A listener on 127.0.0.1 whose accept queue is full and never drained: the kernel drops new SYNs,
/// so a connection attempt hangs as it would to an address that drops them, until its timeout.
final class SilentListener: @unchecked Sendable {
    let port: Int
    private var descriptors: [Int32] = []

    init() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, length) == 0 && listen(listener, 0) == 0 && getsockname(listener, $0, &length) == 0
            }
        }
        guard bound else {
            _ = Glibc.close(listener)
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "cannot listen on 127.0.0.1"])
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        descriptors.append(listener)
        // A backlog of 0 queues one connection; a few more attempts make sure the queue is full.
        for _ in 0..<4 {
            let filler = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            _ = fcntl(filler, F_SETFL, fcntl(filler, F_GETFL) | O_NONBLOCK)
            _ = withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(filler, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            descriptors.append(filler)
        }
        usleep(100_000)
    }

    func close() {
        for descriptor in descriptors { _ = Glibc.close(descriptor) }
        descriptors.removeAll()
    }
}
