import Courier
import CourierTestServer
import Foundation
import HTTPTypes
import Testing

@Suite("Transport conformance: exchanges", .timeLimit(.minutes(1)))
struct ExchangeConformanceTests {
    /// Header lines a transport may add to ours: the host, and content negotiation for the decompression it does.
    static let transportAdded: Set<String> = ["host", "accept-encoding", "connection", "te"]

    @Test(arguments: TransportUnderTest.all(with: .headerOrder))
    func getSendsExactlyTheRequestsHeaderLinesInOrder(transport: TransportUnderTest) async throws {
        try await transport.withClient { client, server in
            let request = try server.request("/echo/get?q=a%20b") {
                Accept(.json)
                Header.custom("X-Trace").setValue("t-1")
                Cookie("a", "1")
                Cookie("b", "2")
                Headers { UserAgentHeader("Courier-Conformance") }
            }
            let echo = try echoed(try await client.send(request))
            #expect(echo.method == "GET")
            #expect(echo.path == "/echo/get")
            #expect(echo.query == "q=a%20b")
            let ours = echo.headers.filter { !Self.transportAdded.contains($0[0].lowercased()) }
            #expect(
                ours == [
                    ["Accept", "application/json"], ["X-Trace", "t-1"], ["Cookie", "a=1; b=2"],
                    ["User-Agent", "Courier-Conformance"],
                ])
            #expect(echo.headers.contains { $0[0].lowercased() == "host" })
        }
    }

    @Test(arguments: TransportUnderTest.all)
    func bodiesOfEveryKindArriveByteForByte(transport: TransportUnderTest) async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("conformance-\(UUID()).bin")
        let fileBytes = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        try fileBytes.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let bodies: [(String, RequestBody, Data)] = [
            ("bytes", .data(Data([0, 1, 2, 255])), Data([0, 1, 2, 255])),
            ("text", .string("héllo\r\nworld"), Data("héllo\r\nworld".utf8)),
            ("file", .file(file), fileBytes),
            (
                "restartable stream of unknown length",
                .stream(restartable: {
                    AsyncStream<Data> { continuation in
                        for piece in ["chunk-1 ", "chunk-2 ", "chunk-3"] { continuation.yield(Data(piece.utf8)) }
                        continuation.finish()
                    }
                }), Data("chunk-1 chunk-2 chunk-3".utf8)
            ),
            (
                "one-shot stream with a length",
                .stream(
                    AsyncStream<Data> { continuation in
                        continuation.yield(Data("12345".utf8))
                        continuation.finish()
                    }, length: 5), Data("12345".utf8)
            ),
        ]
        try await transport.withClient { client, server in
            for (name, body, expected) in bodies {
                let request = try server.request("/echo/upload") {
                    Method.PUT
                    body
                }
                let echo = try echoed(try await client.send(request))
                #expect(echo.method == "PUT", "\(name)")
                #expect(echo.body == expected, "\(name): \(echo.bodyLength) bytes arrived")
            }
        }
    }

    @Test(arguments: TransportUnderTest.all)
    func aStreamedMultipartUploadArrivesWhole(transport: TransportUnderTest) async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("conformance-\(UUID()).bin")
        try Data(repeating: 0x5A, count: 2_000_000).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        try await transport.withClient { client, server in
            let request = try server.request("/upload") {
                Method.POST
                RequestBody.multipart(strategy: .streamed(bufferSize: 32 * 1024), boundary: "b") {
                    MultipartPart.field(name: "note", value: "big")
                    MultipartPart.file(name: "blob", fileURL: file)
                }
            }
            let expected = try #require(request.body?.contentLength)
            let reply = try await client.send(request, decoding: [String: Int64].self)
            #expect(reply["received"] == expected)
        }
    }

    @Test(arguments: TransportUnderTest.all)
    func headAndCustomMethodsAreSentAsWritten(transport: TransportUnderTest) async throws {
        try await transport.withClient { client, server in
            let head = try await client.send(try server.request("/echo/h") { Method.HEAD })
            #expect(head.status == .ok)
            #expect(head.body.isEmpty)
            let link = try echoed(try await client.send(try server.request("/echo/l") { Method.custom("LINK") }))
            #expect(link.method == "LINK")
            let delete = try echoed(try await client.send(try server.request("/echo/d") { Method.DELETE }))
            #expect(delete.method == "DELETE")
        }
    }

    @Test(arguments: TransportUnderTest.all)
    func everyStatusIsReturnedAsIs(transport: TransportUnderTest) async throws {
        try await transport.withClient { client, server in
            for code in [201, 204, 304, 404, 418, 500, 503] {
                let response = try await client.send(try server.request("/status/\(code)"))
                #expect(response.status.code == code)
            }
        }
    }

    @Test(arguments: TransportUnderTest.all)
    func decodingUsesTheEchoedJSON(transport: TransportUnderTest) async throws {
        try await transport.withClient { client, server in
            let request = try server.request("/echo/decode") {
                Method.POST
                RequestBody.json(["k": "v"])
            }
            let method = try await client.send(request, decoding: String.self, at: "method")
            #expect(method == "POST")
            let error = await courierError {
                try await client.send(try server.request("/status/404"), decoding: EchoedRequest.self)
            }
            #expect(error?.code == .unacceptableStatus)
            #expect(error?.response?.status == .notFound)
        }
    }

    @Test(arguments: TransportUnderTest.all)
    func credentialsAreCheckedByTheServer(transport: TransportUnderTest) async throws {
        try await transport.withClient { client, server in
            let good = try await client.send(
                try server.request("/basic-auth/ada/s3cret") {
                    Authorization.basic(username: "ada", password: "s3cret")
                })
            #expect(good.status == .ok)
            let bad = try await client.send(
                try server.request("/basic-auth/ada/s3cret") { Authorization.basic(username: "ada", password: "nope") })
            #expect(bad.status == .unauthorized)
            let bearer = try await client.send(
                try server.request("/bearer?token=t0k3n") { Authorization.bearer("t0k3n") })
            #expect(bearer.status == .ok)
        }
    }

    @Test(arguments: TransportUnderTest.all)
    func cookiesSetByTheServerAreNotKeptByTheTransport(transport: TransportUnderTest) async throws {
        var configuration = Client.Configuration()
        configuration.redirects = .disabled
        try await transport.withClient(configuration: configuration) { client, server in
            let set = try await client.send(try server.request("/cookies/set?flavour=oat"))
            #expect(set.status == .found)
            #expect(set.headerFields[.setCookie]?.contains("flavour=oat") == true)
            let echo = try await client.send(try server.request("/cookies"))
            #expect(!echo.text.contains("oat"))
        }
    }

    @Test(arguments: TransportUnderTest.all)
    func gzipBodiesArriveDecoded(transport: TransportUnderTest) async throws {
        try await transport.withClient { client, server in
            let response = try await client.send(try server.request("/gzip"))
            #expect(response.status == .ok)
            #expect(response.headerFields[.contentEncoding] == nil)
            let json = try JSONSerialization.jsonObject(with: response.body) as? [String: Any]
            #expect(json != nil, "\(response.text.prefix(80))")
        }
    }

    @Test(arguments: TransportUnderTest.all)
    func thirtyTwoConcurrentRequestsAllComplete(transport: TransportUnderTest) async throws {
        try await transport.withClient { client, server in
            let codes = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<32 {
                    let request = try server.request("/echo/\(index)")
                    group.addTask { try await client.send(request).status.code }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(codes == Array(repeating: 200, count: 32))
        }
    }
}
