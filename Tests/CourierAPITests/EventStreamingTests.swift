import CourierAPI
import CourierTestServer
import Foundation
import Testing

struct Tick: Decodable, Sendable, Equatable {
    let tickCount: Int
}

@API
struct EventsAPI {
    @GET("/ticks")
    @EventStreaming
    @KeyMapping(.snakeCase)
    func ticks() async throws -> AsyncThrowingStream<Tick, any Error>

    @GET("/sse")
    @EventStreaming
    func data(
        count: Int, @Query("drop_after") dropAfter: Int?, @Query("retry_ms") retryMs: Int
    ) async throws -> AsyncThrowingStream<String, any Error>

    @EventStreaming
    @GET("/sse")
    func events(count: Int) async throws -> AsyncStream<ServerSentEvent>

    @EventStreaming
    @POST("/sse")
    func posted(
        model: String, @Query("retry_ms") retryMs: Int
    ) async throws -> AsyncThrowingStream<ServerSentEvent, any Error>
}

@Suite("@EventStreaming")
struct EventStreamingTests {
    @Test func dataOfEachEventAcrossADropAndReconnect() async throws {
        try await withProvider { provider, _ in
            let seen = RecordedRequests()
            let recording = provider.intercept { request, next in
                seen.append(request)
                return try await next(request)
            }
            var received: [String] = []
            for try await data in try await EventsAPI(recording).data(count: 3, dropAfter: 1, retryMs: 10) {
                received.append(data)
            }
            #expect(received == ["event 1\nof 3", "event 2\nof 3", "event 3\nof 3"])
            #expect(seen.all.count >= 2)
            #expect(seen.all.last?.headerFields[.init("Last-Event-ID")!] != nil)
        }
    }

    @Test func eachEventsDataDecodedWithTheEndpointsDecoder() async throws {
        try await withProvider { provider, _ in
            var ticks: [Tick] = []
            for try await tick in try await EventsAPI(provider).ticks() {
                ticks.append(tick)
                if ticks.count == 2 { break }
            }
            #expect(ticks == [Tick(tickCount: 1), Tick(tickCount: 2)])
        }
    }

    @Test func nonThrowingStreamsOfCoreEvents() async throws {
        try await withProvider { provider, _ in
            var events: [ServerSentEvent] = []
            for await event in try await EventsAPI(provider).events(count: 2) {
                events.append(event)
            }
            #expect(events.map(\.id) == ["1", "2"])
            #expect(events.allSatisfy { $0.type == "tick" })
        }
    }

    @Test func aPostStreamSendsItsFields() async throws {
        try await withProvider { provider, _ in
            let seen = RecordedRequests()
            let recording = provider.intercept { request, next in
                seen.append(request)
                return try await next(request)
            }
            var count = 0
            for try await _ in try await EventsAPI(recording).posted(model: "gpt", retryMs: 10) { count += 1 }
            #expect(count == 3)
            let request = try #require(seen.all.first)
            #expect(request.method == .post)
            #expect(try await request.body?.collect() == Data(#"{"model":"gpt"}"#.utf8))
        }
    }
}
