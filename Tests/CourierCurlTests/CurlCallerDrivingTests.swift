import Courier
import CourierTestServer
import Foundation
import HTTPTypes
import Testing

@testable import CourierCurl

/// A blocking caller that drives curl on its own thread (`CurlCallerDriving`, as the C library's
/// `courier_client_send` does): what it sends and receives is what the I/O thread would give,
/// the I/O thread never starts, and whatever needs another thread goes through it as before.
@Suite struct CurlCallerDrivingTests {
    @Test func sequentialSendsRunOnTheCallersThreadOverOneConnection() async throws {
        try await withCurl { server, transport in
            let attempts = try await drivenOnOneThread {
                var statuses: [Int] = []
                for index in 0..<5 {
                    let response = try await transport.fetch(Request(url: server.url("/echo/\(index)")))
                    statuses.append(response.status.code)
                    #expect(try response.echoed().path == "/echo/\(index)")
                }
                return statuses
            }
            #expect(attempts == [200, 200, 200, 200, 200])
            #expect(transport.connectionsOpened == 1)
            #expect(!transport.loop.isRunning, "the I/O thread started")
        }
    }

    @Test func aDrivenSendNeverSuspendsItsTask() async throws {
        try await withCurl { server, transport in
            let executor = OneThreadExecutor()
            defer { executor.stop() }
            let jobsDuringSends = try await drivenOnOneThread(on: executor) {
                _ = try await transport.fetch(Request(url: server.url("/echo/warm-up")))
                let before = executor.enqueuedJobs
                for index in 0..<3 {
                    let response = try await transport.fetch(Request(url: server.url("/echo/\(index)")))
                    #expect(response.status.code == 200)
                }
                return executor.enqueuedJobs - before
            }
            // A suspended send would come back as a new job on the executor, once per send.
            #expect(jobsDuringSends == 0)
            #expect(!transport.loop.isRunning, "the I/O thread started")
        }
    }

    @Test func aBodyFromMemoryIsSentAndTheResponseArrivesWithItsBodyWhole() async throws {
        try await withCurl { server, transport in
            let response = try await drivenOnOneThread {
                let request = Request(
                    method: .post, url: server.url("/echo"), headerFields: [.contentType: "text/plain"],
                    body: .data(Data("driven body".utf8), type: .plainText))
                return try await transport.send(request, context: TransportContext())
            }
            let collected = try await response.collectingBody(upTo: .max)
            #expect(try collected.echoed().body == Data("driven body".utf8))
            #expect(!transport.loop.isRunning)
        }
    }

    @Test func aCompressedBodyIsDecodedAndABombRefused() async throws {
        try await withCurl { server, transport in
            let text = try await drivenOnOneThread { try await transport.fetch(Request(url: server.url("/gzip"))) }
            #expect(text.text == CurlTestRoutes.plainText)
            #expect(text.headerFields[.contentEncoding] == nil)
            let error = await courierError {
                _ = try await drivenOnOneThread { try await transport.fetch(Request(url: server.url("/bomb"))) }
            }
            #expect(error?.code == .limitExceeded)
        }
    }

    @Test func aBodyOverTheLimitFailsAsCollectingItWould() async throws {
        try await withCurl { server, transport in
            let error = await courierError {
                _ = try await drivenOnOneThread(maxBodyBytes: 1000) {
                    try await transport.fetch(Request(url: server.url("/bytes/5000")))
                }
            }
            #expect(error?.code == .limitExceeded)
            #expect(error?.message == "the response body is larger than the limit of 1000 bytes")
            #expect(error?.request?.url == server.url("/bytes/5000"))
        }
    }

    @Test func timeoutsAndRefusedConnectionsFailAsOnTheIOThread() async throws {
        try await withCurl { server, transport in
            let timedOut = await courierError {
                _ = try await drivenOnOneThread {
                    try await transport.fetch(Request(url: server.url("/never"), timeout: .milliseconds(300)))
                }
            }
            #expect(timedOut?.code == .timedOut)
            let port = try unusedPort()
            defer { close(port.socket) }
            let refused = await courierError {
                _ = try await drivenOnOneThread {
                    try await transport.fetch(Request(url: URL(string: "http://127.0.0.1:\(port.number)/")!))
                }
            }
            #expect(refused?.code == .cannotConnect)
            #expect(!transport.loop.isRunning)
        }
    }

    @Test func aStreamedRequestBodyGoesThroughTheIOThread() async throws {
        try await withCurl { server, transport in
            let response = try await drivenOnOneThread {
                let parts = [Data("stre".utf8), Data("amed".utf8)]
                let request = Request(method: .post, url: server.url("/echo"), body: .stream(parts.async, length: 8))
                return try await transport.fetch(request)
            }
            #expect(try response.echoed().body == Data("streamed".utf8))
            #expect(transport.loop.isRunning, "a body produced by another task needs the I/O thread")
        }
    }

    @Test func aSendOnAnotherThreadThanTheDriversGoesThroughTheIOThread() async throws {
        try await withCurl { server, transport in
            let driving = CurlCallerDriving(maxBodyBytes: .max)
            let response = try await drivenOnOneThread {
                try await CurlCallerDriving.$current.withValue(driving) {
                    try await transport.fetch(Request(url: server.url("/echo")))
                }
            }
            #expect(response.status.code == 200)
            #expect(transport.loop.isRunning)
        }
    }

    @Test func aShutDownTransportRefusesADrivenSend() async throws {
        try await withCurl { server, transport in
            await transport.shutdown()
            let error = await courierError {
                _ = try await drivenOnOneThread { try await transport.fetch(Request(url: server.url("/echo"))) }
            }
            #expect(error?.code == .cancelled)
        }
    }
}

/// Runs `body` in a task whose jobs all run on one thread of its own, with that thread named as
/// the driver of its transfers, as a blocking C send runs.
private func drivenOnOneThread<T: Sendable>(
    maxBodyBytes: Int64 = .max,
    _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    let executor = OneThreadExecutor()
    defer { executor.stop() }
    return try await drivenOnOneThread(on: executor, maxBodyBytes: maxBodyBytes, body)
}

/// `drivenOnOneThread` on an executor the caller made and stops.
private func drivenOnOneThread<T: Sendable>(
    on executor: OneThreadExecutor,
    maxBodyBytes: Int64 = .max,
    _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await Task(executorPreference: executor) {
        try await CurlCallerDriving.$current.withValue(CurlCallerDriving(maxBodyBytes: maxBodyBytes)) {
            try await body()
        }
    }.value
}

/// A task executor with one thread of its own, which runs every job it is given in order.
private final class OneThreadExecutor: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var stopped = false
    private var enqueued = 0

    /// How many jobs were given to this executor so far.
    var enqueuedJobs: Int {
        condition.lock()
        defer { condition.unlock() }
        return enqueued
    }

    init() {
        let thread = Thread { [self] in runJobs() }
        thread.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        enqueued += 1
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    func stop() {
        condition.lock()
        stopped = true
        condition.signal()
        condition.unlock()
    }

    private func runJobs() {
        while true {
            condition.lock()
            while jobs.isEmpty && !stopped { condition.wait() }
            if jobs.isEmpty {
                condition.unlock()
                return
            }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
