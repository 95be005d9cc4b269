import Courier
import CourierCurl
import CourierTestServer
import Foundation
import HTTPTypes
import Synchronization
import Testing

@Suite("Single-flight interceptor")
struct SingleFlightInterceptorTests {
    /// Starts one send, waits until the server has it, then starts `followers` identical ones.
    static func sendTogether(
        _ client: Client, _ request: Request, followers: Int, server: TestServer,
        path: String
    ) async throws -> [Task<Response, any Error>] {
        var tasks = [Task { try await client.send(request) }]
        while server.hits(path) == 0 { try await Task.sleep(for: .milliseconds(5)) }
        for _ in 0..<followers {
            tasks.append(Task { try await client.send(request) })
        }
        return tasks
    }

    @Test(arguments: ServerTransport.all)
    func identicalGetsInFlightShareOneTransportCall(transport: ServerTransport) async throws {
        try await withTestServer { server in
            let singleFlight = SingleFlightInterceptor()
            let client = transport.client(interceptors: [singleFlight])
            let tasks = try await Self.sendTogether(
                client, Request(url: server.url("/delay/4000?q=1")), followers: 9,
                server: server, path: "/delay")
            var bodies: [Data] = []
            for task in tasks {
                let response = try await task.value
                #expect(response.status == .ok)
                #expect(!response.isStreaming)
                bodies.append(response.body)
            }
            #expect(server.hits("/delay") == 1)
            #expect(bodies.count == 10 && Set(bodies).count == 1 && !bodies[0].isEmpty)
            #expect(singleFlight.inFlightCount == 0)
        }
    }

    @Test(arguments: ServerTransport.all)
    func requestsThatDifferInAHeaderAreNotShared(transport: ServerTransport) async throws {
        try await withTestServer { server in
            let client = transport.client(interceptors: [SingleFlightInterceptor()])
            async let first = client.send(server.url("/delay/300").buildRequest { Authorization.bearer("user-one") })
            async let second = client.send(server.url("/delay/300").buildRequest { Authorization.bearer("user-two") })
            let (a, b) = try await (first, second)
            #expect(a.text.contains("user-one") && b.text.contains("user-two"))
            #expect(server.hits("/delay") == 2)
        }
    }

    @Test(arguments: ServerTransport.all)
    func requestsWithABodyOrAnUnsafeMethodAreNotShared(transport: ServerTransport) async throws {
        try await withTestServer { server in
            let client = transport.client(interceptors: [SingleFlightInterceptor()])
            let post = try server.url("/delay/300").buildRequest {
                Method.POST
                RequestBody.string("a")
            }
            async let first = client.send(post)
            async let second = client.send(post)
            _ = try await (first, second)
            #expect(server.hits("/delay") == 2)
        }
    }

    @Test(arguments: ServerTransport.all)
    func cancellingOneWaiterLeavesTheOthersTheLeaderIncluded(transport: ServerTransport) async throws {
        try await withTestServer { server in
            let client = transport.client(interceptors: [SingleFlightInterceptor()])
            let tasks = try await Self.sendTogether(
                client, Request(url: server.url("/delay/4000")), followers: 3,
                server: server, path: "/delay")
            try await Task.sleep(for: .milliseconds(50))
            tasks[0].cancel()
            tasks[2].cancel()
            for index in [0, 2] {
                let error = await #expect(throws: CourierError.self) { try await tasks[index].value }
                #expect(error?.code == .cancelled)
            }
            #expect(try await tasks[1].value.status == .ok)
            #expect(try await tasks[3].value.status == .ok)
            #expect(server.hits("/delay") == 1)
        }
    }

    @Test(arguments: ServerTransport.all)
    func whenEveryWaiterLeavesTheTransferIsCancelledAndTheNextRequestStartsAfresh(
        transport: ServerTransport
    ) async throws {
        try await withTestServer { server in
            let singleFlight = SingleFlightInterceptor()
            let client = transport.client(interceptors: [singleFlight])
            let request = Request(url: server.url("/delay/2000"))
            let tasks = try await Self.sendTogether(client, request, followers: 1, server: server, path: "/delay")
            try await Task.sleep(for: .milliseconds(50))
            for task in tasks { task.cancel() }
            for task in tasks { await #expect(throws: CourierError.self) { try await task.value } }
            let fresh = try await client.send(Request(url: server.url("/delay/0")))
            #expect(fresh.status == .ok)
            let again = try await client.send(request)
            #expect(again.status == .ok)
            #expect(server.hits("/delay/2000") == 2)
        }
    }

    @Test(arguments: ServerTransport.all)
    func aBodyOverTheLimitFailsEveryMemberWithLimitExceeded(transport: ServerTransport) async throws {
        try await withTestServer { server in
            var configuration = Client.Configuration()
            configuration.limits.maxBodyBytes = 10
            let client = transport.client(interceptors: [SingleFlightInterceptor()], configuration: configuration)
            let tasks = try await Self.sendTogether(
                client, Request(url: server.url("/delay/2000")), followers: 3,
                server: server, path: "/delay")
            for task in tasks {
                let error = await #expect(throws: CourierError.self) { try await task.value }
                #expect(error?.code == .limitExceeded)
            }
            #expect(server.hits("/delay") == 1)
        }
    }
}
