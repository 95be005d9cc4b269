import Courier
import CourierCurl
import CourierRecording
import CourierTestServer
import Foundation
import HTTPTypes
import Testing

@Suite struct CassetteTransportTests {
    /// The requests the record-and-replay tests send: text, a JSON body, binary bytes, an error status.
    static func requests(to base: URL) -> [Request] {
        [
            Request(url: url(base, "echo/users?page=2")),
            Request(
                method: .post, url: base.appendingPathComponent("anything/users"),
                headerFields: [.contentType: "application/json"], body: .json(text: #"{"name":"ada"}"#)),
            Request(url: base.appendingPathComponent("bytes/512")),
            Request(url: base.appendingPathComponent("status/418")),
        ]
    }

    @Test func onceRecordsThenReplaysIdenticalResponsesAfterTheServerStopped() async throws {
        try await withScratchDirectory { directory in
            let file = directory.appendingPathComponent("users.har")
            var base = URL(fileURLWithPath: "/")
            let recorded = try await withTestServer { server in
                base = server.baseURL
                let transport = CurlTransport()
                let cassette = try CassetteTransport(cassette: file, mode: .once, recordingThrough: transport)
                #expect(cassette.isRecording)
                let client = Client(transport: cassette)
                var responses: [ObservedResponse] = []
                for request in Self.requests(to: server.baseURL) {
                    responses.append(ObservedResponse(try await client.send(request)))
                }
                await transport.shutdown()
                #expect(server.receivedRequests.count == 4)
                return responses
            }

            let replaying = try CassetteTransport(cassette: file, mode: .once)
            #expect(!replaying.isRecording)
            let client = Client(transport: replaying)
            var replayed: [ObservedResponse] = []
            for request in Self.requests(to: base) {
                replayed.append(ObservedResponse(try await client.send(request)))
            }
            #expect(replayed == recorded)
            #expect(recorded.map(\.status) == [200, 200, 200, 418])
            #expect(recorded[2].body.count == 512)
            try await expectValidHAR(file)
        }
    }

    @Test func noneFailsAnUnmatchedRequestNamingTheClosestEpisodes() async throws {
        try await withScratchDirectory { directory in
            let file = directory.appendingPathComponent("users.har")
            let upstream = MockTransport { request in .text("user \(request.url.lastPathComponent)") }
            let recording = Client(
                transport: try CassetteTransport(cassette: file, mode: .once, recordingThrough: upstream))
            for path in ["users/42", "users/7", "orders/1"] {
                _ = try await recording.send(Request(url: URL(string: "https://api.example.com/\(path)")!))
            }

            let client = Client(transport: try CassetteTransport(cassette: file, mode: .none))
            #expect(
                try await client.send(Request(url: URL(string: "https://api.example.com/users/7")!)).text == "user 7")
            let error = try await #require(throws: CourierError.self) {
                _ = try await client.send(Request(url: URL(string: "https://api.example.com/users/43")!))
            }
            #expect(error.code == .cannotConnect)
            let unmatched = try #require(error.underlying as? UnmatchedCassetteRequest)
            #expect(unmatched.method == "GET")
            #expect(unmatched.url == "https://api.example.com/users/43")
            #expect(
                unmatched.candidates.map(\.url) == [
                    "https://api.example.com/users/42", "https://api.example.com/users/7",
                    "https://api.example.com/orders/1",
                ])
            #expect(unmatched.candidates[0].reason == "URL differs")
            #expect(error.message.contains("no episode for GET https://api.example.com/users/43"))
            #expect(error.message.contains("#0 GET https://api.example.com/users/42"))
            #expect(upstream.requests.count == 3)
        }
    }

    @Test func eachEpisodeAnswersOnceInRecordedOrder() async throws {
        try await withScratchDirectory { directory in
            let file = directory.appendingPathComponent("counter.har")
            let upstream = MockTransport()
            upstream.enqueue(.text("first"))
            upstream.enqueue(.text("second"))
            let url = URL(string: "https://api.example.com/next")!
            let recording = Client(transport: try CassetteTransport(cassette: file, recordingThrough: upstream))
            _ = try await recording.send(Request(url: url))
            _ = try await recording.send(Request(url: url))

            let client = Client(transport: try CassetteTransport(cassette: file, mode: .none))
            #expect(try await client.send(Request(url: url)).text == "first")
            #expect(try await client.send(Request(url: url)).text == "second")
            let error = try await #require(throws: CourierError.self) { _ = try await client.send(Request(url: url)) }
            let unmatched = try #require(error.underlying as? UnmatchedCassetteRequest)
            #expect(unmatched.candidates.map(\.reason) == ["already replayed", "already replayed"])
        }
    }

    @Test func newEpisodesReplaysMatchesAndAppendsWhatIsNew() async throws {
        try await withScratchDirectory { directory in
            let file = directory.appendingPathComponent("episodes.har")
            try await withTestServer { server in
                let transport = CurlTransport()
                let first = Client(
                    transport: try CassetteTransport(cassette: file, mode: .once, recordingThrough: transport))
                let original = try await first.send(Request(url: server.baseURL.appendingPathComponent("echo/one")))

                let cassette = try CassetteTransport(cassette: file, mode: .newEpisodes, recordingThrough: transport)
                let client = Client(transport: cassette)
                let replayed = try await client.send(Request(url: server.baseURL.appendingPathComponent("echo/one")))
                #expect(ObservedResponse(replayed) == ObservedResponse(original))
                #expect(server.receivedRequests.count == 1)
                let new = try await client.send(Request(url: server.baseURL.appendingPathComponent("echo/two")))
                #expect(new.status == .ok)
                #expect(server.receivedRequests.count == 2)
                await transport.shutdown()

                let saved = try HTTPArchive(contentsOf: file)
                #expect(saved.log.entries.map { URL(string: $0.request.url)?.path } == ["/echo/one", "/echo/two"])
            }
        }
    }

    @Test func matchingOnTheBodyAndHeadersTellsRequestsToOneURLApart() async throws {
        try await withScratchDirectory { directory in
            let file = directory.appendingPathComponent("search.har")
            let upstream = MockTransport { request in
                .text(
                    "\(request.headerFields[.acceptLanguage] ?? "-") \(String(decoding: try await request.body?.collect() ?? Data(), as: UTF8.self))"
                )
            }
            let url = URL(string: "https://api.example.com/search")!
            func search(_ query: String, language: String) -> Request {
                Request(method: .post, url: url, headerFields: [.acceptLanguage: language], body: .string(query))
            }
            let matching = CassetteMatching(headers: [.acceptLanguage], body: true)
            let recording = Client(
                transport: try CassetteTransport(cassette: file, matching: matching, recordingThrough: upstream))
            for (query, language) in [("swift", "en"), ("swift", "fr"), ("curl", "en")] {
                _ = try await recording.send(search(query, language: language))
            }

            let client = Client(transport: try CassetteTransport(cassette: file, mode: .none, matching: matching))
            #expect(try await client.send(search("curl", language: "en")).text == "en curl")
            #expect(try await client.send(search("swift", language: "fr")).text == "fr swift")
            #expect(try await client.send(search("swift", language: "en")).text == "en swift")
            let error = try await #require(throws: CourierError.self) {
                _ = try await client.send(search("swift", language: "de"))
            }
            let unmatched = try #require(error.underlying as? UnmatchedCassetteRequest)
            #expect(unmatched.candidates.contains { $0.reason == "header Accept-Language differs" })
        }
    }

    @Test func aModeThatRecordsNeedsATransportToRecordThrough() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("courier-missing-\(UUID()).har")
        let error = #expect(throws: CourierError.self) { _ = try CassetteTransport(cassette: file, mode: .newEpisodes) }
        #expect(error?.code == .invalidRequest)
    }
}
