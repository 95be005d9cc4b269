import Courier
import CourierAsyncHTTPClient
import CourierTestServer
import Foundation
import HTTPTypes
import Testing

@Suite("AsyncHTTPClientTransport streaming, cancellation and timeouts", .timeLimit(.minutes(2)))
struct StreamingTests {
    @Test func largeDownloadWithASlowReaderStaysWithinTheBackpressureBound() async throws {
        try await withTestServer { server in
            try await withTransport { transport in
                let received = Recorder<Int64>(0)
                let context = TransportContext(downloadProgress: { bytes, _ in received.update { $0 = bytes } })
                let response = try await transport.send(request(.get, "/bytes/50000000", on: server), context: context)
                #expect(response.bodyStream?.expectedLength == 50_000_000)
                var consumed: Int64 = 0
                var mostAhead: Int64 = 0
                var expectedByte: UInt8 = 0
                var inOrder = true
                for try await chunk in response.bodyStream! {
                    if consumed < 8_000_000 { try await Task.sleep(for: .milliseconds(2)) }
                    inOrder = inOrder && chunk.first == expectedByte
                    consumed += Int64(chunk.count)
                    expectedByte = UInt8(truncatingIfNeeded: consumed)
                    mostAhead = max(mostAhead, received.value - consumed)
                }
                #expect(consumed == 50_000_000)
                #expect(inOrder)
                // The stream pauses AsyncHTTPClient above 1 MiB unread; one more read may be in flight.
                #expect(mostAhead < 4 * 1024 * 1024, "the transport ran \(mostAhead) bytes ahead of the reader")
            }
        }
    }

    @Test func cancellingWhileWaitingForTheHeadEndsQuicklyAndClosesTheConnection() async throws {
        try await withTestServer(routes: [.hang] + Route.defaults) { server in
            try await withTransport { transport in
                let sending = Task {
                    try await transport.send(request(.get, "/hang", on: server), context: TransportContext())
                }
                #expect(await eventually { server.receivedRequests.count == 1 })
                let elapsed = await duration {
                    sending.cancel()
                    let error = await courierError { _ = try await sending.value }
                    #expect(error?.code == .cancelled)
                    #expect(error?.request?.url.path == "/hang")
                }
                #expect(elapsed < .seconds(20))
                #expect(await eventually { server.openConnectionCount == 0 })
            }
        }
    }

    @Test func cancellingTheReaderMidBodyEndsQuicklyAndClosesTheConnection() async throws {
        try await withTestServer { server in
            try await withTransport { transport in
                let response = try await transport.send(
                    request(.get, "/bytes/50000000", on: server), context: TransportContext())
                let firstChunk = AsyncStream<Void>.makeStream()
                let reading = Task {
                    var consumed = 0
                    for try await chunk in response.bodyStream! {
                        if consumed == 0 { firstChunk.continuation.yield() }
                        consumed += chunk.count
                        try? await Task.sleep(for: .milliseconds(5))
                    }
                    return consumed
                }
                for await _ in firstChunk.stream { break }
                let elapsed = await duration {
                    reading.cancel()
                    let error = await courierError { _ = try await reading.value }
                    #expect(error?.code == .cancelled)
                }
                #expect(elapsed < .seconds(20))
                #expect(await eventually { server.openConnectionCount == 0 })
            }
        }
    }

    @Test func stoppingReadingEarlyClosesTheConnection() async throws {
        try await withTestServer { server in
            try await withTransport { transport in
                let response = try await transport.send(
                    request(.get, "/bytes/50000000", on: server), context: TransportContext())
                for try await chunk in response.bodyStream! {
                    #expect(!chunk.isEmpty)
                    break
                }
                #expect(await eventually { server.openConnectionCount == 0 })
                let next = try await transport.fetch(request(.get, "/bytes/5", on: server))
                #expect(next.body.count == 5)
                #expect(server.acceptedConnectionCount == 2)
            }
        }
    }

    @Test func totalTimeoutBeforeTheHeadThrowsTimedOut() async throws {
        try await withTestServer(routes: [.hang] + Route.defaults) { server in
            try await withTransport { transport in
                let elapsed = await duration {
                    let error = await courierError {
                        _ = try await transport.send(
                            request(.get, "/hang", on: server, timeout: .seconds(1)),
                            context: TransportContext())
                    }
                    #expect(error?.code == .timedOut)
                    #expect(error?.request?.url.path == "/hang")
                }
                #expect(elapsed >= .seconds(1))
                #expect(elapsed < .seconds(30), "the timeout, not the server, ends it")
                #expect(await eventually { server.openConnectionCount == 0 })
            }
        }
    }

    @Test func contextTimeoutAppliesWhenTheRequestHasNone() async throws {
        try await withTestServer(routes: [.hang] + Route.defaults) { server in
            try await withTransport { transport in
                let error = await courierError {
                    _ = try await transport.send(
                        request(.get, "/hang", on: server),
                        context: TransportContext(timeout: .milliseconds(200)))
                }
                #expect(error?.code == .timedOut)
            }
        }
    }

    @Test func totalTimeoutWhileTheBodyArrivesFailsTheBodyWithTimedOut() async throws {
        try await withTestServer { server in
            try await withTransport { transport in
                // The head comes at once, then 10 bytes a second for a minute: the head arrives well
                // within the 15 s allowed even on a heavily loaded machine, and the body never does.
                let clock = ContinuousClock()
                let start = clock.now
                let response = try await transport.send(
                    request(
                        .get, "/drip?numbytes=600&duration_ms=60000&chunk=10", on: server,
                        timeout: .seconds(15)),
                    context: TransportContext())
                var received = 0
                let error = await courierError {
                    for try await chunk in response.bodyStream! { received += chunk.count }
                }
                #expect(error?.code == .timedOut)
                #expect(received < 600)
                #expect(clock.now - start < .seconds(45), "the timeout, not the end of the body, ends it")
                #expect(await eventually { server.openConnectionCount == 0 })
            }
        }
    }

    @Test func unreachablePortThrowsCannotConnect() async throws {
        // Port 1 on loopback: privileged and never listened on, whereas a stopped test server's port
        // may already have gone to another suite's server.
        let closedPortRequest = Request(url: URL(string: "http://127.0.0.1:1/echo")!)
        try await withTransport { transport in
            let elapsed = await duration {
                let error = await courierError {
                    _ = try await transport.send(closedPortRequest, context: TransportContext())
                }
                #expect(error?.code == .cannotConnect)
                #expect(error?.request?.url == closedPortRequest.url)
            }
            #expect(elapsed < .seconds(30))
        }
    }

    @Test func httpsToAPlainHTTPServerThrowsInsecureConnection() async throws {
        try await withTestServer { server in
            try await withTransport { transport in
                let url = URL(string: "https://127.0.0.1:\(server.port)/echo")!
                let error = await courierError {
                    _ = try await transport.send(Request(url: url, timeout: .seconds(20)), context: TransportContext())
                }
                #expect(error?.code == .insecureConnection)
            }
        }
    }
}
