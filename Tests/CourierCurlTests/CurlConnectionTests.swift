import Courier
import CourierTestServer
import Foundation
import HTTPTypes
import TestProcesses
import Testing

@testable import CourierCurl

#if canImport(Glibc)
import Glibc
#endif

@Suite("CurlTransport: connections, timeouts and lifecycle", .timeLimit(.minutes(1)))
struct CurlConnectionTests {
    @Test func sequentialRequestsReuseOneConnection() async throws {
        try await withCurl { server, transport in
            for path in ["/echo/one", "/bytes/1000", "/status/204", "/echo/two"] {
                _ = try await transport.fetch(Request(url: server.url(path)))
            }
            #expect(transport.connectionsOpened == 1)
            #expect(server.receivedRequests.count == 4)
        }
    }

    @Test func aConnectionIdleLongerThanTheIdleTimeoutIsNotReused() async throws {
        var configuration = CurlTransport.Configuration()
        configuration.idleTimeout = .seconds(1)
        try await withCurl(configuration) { server, transport in
            _ = try await transport.fetch(Request(url: server.url("/echo/one")))
            // At least twice the timeout, whatever the scheduling: the connection is too old to reuse.
            try await Task.sleep(for: .milliseconds(2200))
            _ = try await transport.fetch(Request(url: server.url("/echo/two")))
            #expect(transport.connectionsOpened == 2)
        }
    }

    @Test func aKeptConnectionTheServerClosesWhileIdleIsReplacedForTheNextRequest() async throws {
        // A response that promises keep-alive, then the server closes the connection: the idle
        // connection the I/O thread left registered turns readable while curl is not watching it.
        let closing = Route.raw(
            "/closes-when-idle", bytes: Data("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok".utf8), then: .close)
        try await withCurl(routes: CurlTestRoutes.all + [closing]) { server, transport in
            let first = try await transport.fetch(Request(url: server.url("/closes-when-idle")))
            #expect(first.body == Data("ok".utf8))
            try await Task.sleep(for: .milliseconds(200))
            let second = try await transport.fetch(Request(url: server.url("/echo/after")))
            #expect(second.status == .ok)
            #expect(transport.connectionsOpened == 2)
        }
    }

    /// curl takes whole seconds: a fraction rounds up, never down to "reuse for one second less".
    @Test(arguments: [
        (Duration.milliseconds(100), 1), (.seconds(1), 1), (.milliseconds(1500), 2), (.zero, 1), (.seconds(60), 60),
    ])
    func theIdleTimeoutRoundsUpToCurlsWholeSeconds(timeout: Duration, seconds: Int) {
        var configuration = CurlTransport.Configuration()
        configuration.idleTimeout = timeout
        #expect(configuration.idleTimeoutSeconds == seconds)
    }

    @Test func anUnreachablePortFailsWithCannotConnect() async throws {
        let port = try unusedPort()
        let transport = CurlTransport()
        let request = Request(url: URL(string: "http://127.0.0.1:\(port.number)/")!)
        let error = await courierError { _ = try await transport.send(request, context: TransportContext()) }
        #expect(error?.code == .cannotConnect)
        #expect(error?.request?.url == request.url)
        #expect(error?.message.contains("curl error 7") == true)
        close(port.socket)
        await transport.shutdown()
    }

    @Test func aServerThatNeverAnswersTimesOutAtTheTotalDeadline() async throws {
        try await withCurl { server, transport in
            let start = ContinuousClock.now
            let error = await courierError {
                _ = try await transport.send(
                    Request(url: server.url("/never"), timeout: .seconds(1)),
                    context: TransportContext())
            }
            #expect(error?.code == .timedOut)
            #expect(ContinuousClock.now - start < .seconds(30), "the timeout, not the server, ends it")
        }
    }

    /// The I/O thread carries its name, which Linux keeps only up to 15 bytes.
    @Test func theIOThreadIsNamed() async throws {
        try await withCurl { server, transport in
            _ = try await transport.fetch(Request(url: server.url("/echo")))
            #expect(ThreadNames.current().contains("courier-curl-io"))
        }
    }

    @Test func theContextTimeoutAppliesWhenTheRequestHasNone() async throws {
        try await withCurl { server, transport in
            let error = await courierError {
                _ = try await transport.send(
                    Request(url: server.url("/never")), context: TransportContext(timeout: .milliseconds(200)))
            }
            #expect(error?.code == .timedOut)
        }
    }

    @Test func thirtyTwoConcurrentRequestsAllComplete() async throws {
        try await withCurl { server, transport in
            let bodies = try await withThrowingTaskGroup(of: (Int, Data).self) { group in
                for index in 0..<32 {
                    group.addTask {
                        let response = try await transport.fetch(Request(url: server.url("/bytes/\(1000 + index)")))
                        return (index, response.body)
                    }
                }
                return try await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
            }
            #expect(bodies.count == 32)
            for (index, body) in bodies {
                #expect(body == Data((0..<(1000 + index)).map { UInt8(truncatingIfNeeded: $0) }))
            }
            #expect(transport.connectionsOpened <= transport.configuration.maxConnectionsPerHost)
        }
    }

    @Test func requestsAfterShutdownFailWithCancelled() async throws {
        try await withCurl { server, transport in
            _ = try await transport.fetch(Request(url: server.url("/echo")))
            await transport.shutdown()
            let error = await courierError {
                _ = try await transport.send(Request(url: server.url("/echo")), context: TransportContext())
            }
            #expect(error?.code == .cancelled)
        }
    }

    @Test func shutdownFailsATransferStillWaitingForItsHead() async throws {
        try await withCurl { server, transport in
            let task = Task {
                try await transport.send(Request(url: server.url("/never")), context: TransportContext())
            }
            while server.receivedRequests.isEmpty { try await Task.sleep(for: .milliseconds(5)) }
            await transport.shutdown()
            let error = await courierError { _ = try await task.value }
            #expect(error?.code == .cancelled)
        }
    }

    @Test func theIOThreadStopsOnceTheTransportIsReleased() async throws {
        try await withTestServer { server in
            var transport: CurlTransport? = CurlTransport()
            let loop = transport!.loop
            #expect(!loop.isRunning)
            _ = try await transport!.fetch(Request(url: server.url("/echo")))
            #expect(loop.isRunning)
            transport = nil
            let deadline = ContinuousClock.now + .seconds(20)
            while loop.isRunning, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
            #expect(!loop.isRunning)
        }
    }

    @Test func aBodyStillStreamingKeepsTheThreadAfterTheTransportIsReleased() async throws {
        try await withTestServer { server in
            var transport: CurlTransport? = CurlTransport()
            let loop = transport!.loop
            let response = try await transport!.send(
                Request(url: server.url("/bytes/100000")), context: TransportContext())
            transport = nil
            let body = try await response.collectingBody(upTo: .max).body
            #expect(body.count == 100_000)
            let deadline = ContinuousClock.now + .seconds(20)
            while loop.isRunning, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
            #expect(!loop.isRunning)
        }
    }
}
