import AsyncHTTPClient
import Courier
import CourierAsyncHTTPClient
import CourierTestServer
import Foundation
import HTTPTypes
import NIOHTTP1
import Testing

@Suite("AsyncHTTPClientTransport exchange", .timeLimit(.minutes(1)))
struct ExchangeTests {
    @Test func getSendsTargetAndHeaderLinesExactlyInOrder() async throws {
        try await withTestServer { server in
            try await withTransport { transport in
                var headers = HTTPFields()
                headers.append(HTTPField(name: HTTPField.Name("X-B")!, value: "2"))
                headers.append(HTTPField(name: HTTPField.Name("x-a")!, value: "1"))
                headers.append(HTTPField(name: .cookie, value: "a=1"))
                headers.append(HTTPField(name: .cookie, value: "b=2"))
                let response = try await transport.fetch(
                    request(.get, "/echo/a%20b?x=%5B1%5D&y", on: server, headers: headers))
                let echo = try echo(of: response)
                #expect(response.status == .ok)
                #expect(echo.method == "GET")
                #expect(echo.path == "/echo/a%20b")
                #expect(echo.query == "x=%5B1%5D&y")
                // AsyncHTTPClient appends the Host line it adds in lower case; its decompressor adds Accept-Encoding.
                #expect(
                    echo.headers == [
                        ["X-B", "2"], ["x-a", "1"], ["Cookie", "a=1; b=2"],
                        ["host", "127.0.0.1:\(server.port)"], ["Accept-Encoding", "deflate, gzip"],
                    ])
                #expect(echo.bodyLength == 0)
            }
        }
    }

    @Test func requestWithoutDecompressionSendsNoAcceptEncoding() async throws {
        try await withTestServer { server in
            var configuration = AsyncHTTPClientTransport.Configuration()
            configuration.decompressesResponses = false
            try await withTransport(configuration) { transport in
                let echo = try echo(of: try await transport.fetch(request(.get, "/echo", on: server)))
                #expect(echo.headers == [["host", "127.0.0.1:\(server.port)"]])
            }
        }
    }

    @Test func postBytesSendsContentLengthAndTheExactBody() async throws {
        try await withTestServer { server in
            try await withTransport { transport in
                let payload = Data((0..<1000).map { UInt8(truncatingIfNeeded: $0 * 7) })
                let response = try await transport.fetch(request(.post, "/echo", on: server, body: .data(payload)))
                let echo = try echo(of: response)
                #expect(echo.method == "POST")
                #expect(echo.body == payload)
                #expect(echo.headers.contains(["Content-Length", "1000"]))
                #expect(!echo.headers.contains { $0.first?.lowercased() == "transfer-encoding" })
            }
        }
    }

    @Test func postFileStreamsItsContentsWithContentLength() async throws {
        let file = FileManager.default.temporaryDirectory.appending(path: "courier-ahc-\(UUID().uuidString).bin")
        let contents = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try contents.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        try await withTestServer { server in
            try await withTransport { transport in
                let sent = try Request {
                    Method.PUT
                    BaseURL(server.baseURL)
                    Endpoint("/echo/upload")
                    RequestBody.file(file)
                }
                let echo = try echo(of: try await transport.fetch(sent))
                #expect(echo.method == "PUT")
                #expect(echo.bodyLength == contents.count)
                #expect(echo.body == contents)
                #expect(echo.headers.contains(["Content-Length", "300000"]))
            }
        }
    }

    @Test func streamOfUnknownLengthIsSentChunked() async throws {
        try await withTestServer { server in
            try await withTransport { transport in
                let parts = (0..<5).map { Data(repeating: UInt8($0), count: 10_000) }
                let stream = AsyncStream<Data> { continuation in
                    for part in parts { continuation.yield(part) }
                    continuation.finish()
                }
                let echo = try echo(
                    of: try await transport.fetch(request(.post, "/echo", on: server, body: .stream(stream))))
                #expect(echo.body == parts.reduce(Data(), +))
                #expect(echo.headers.contains(["transfer-encoding", "chunked"]))
                #expect(!echo.headers.contains { $0.first?.lowercased() == "content-length" })
            }
        }
    }

    @Test func streamOfKnownLengthIsSentWithContentLength() async throws {
        try await withTestServer { server in
            try await withTransport { transport in
                let stream = AsyncStream<Data> { continuation in
                    continuation.yield(Data("hello ".utf8))
                    continuation.yield(Data("world".utf8))
                    continuation.finish()
                }
                let echo = try echo(
                    of: try await transport.fetch(
                        request(.post, "/echo", on: server, body: .stream(stream, length: 11))))
                #expect(echo.body == Data("hello world".utf8))
                #expect(echo.headers.contains(["Content-Length", "11"]))
            }
        }
    }

    @Test func emptyBodiesSendContentLengthZeroOnlyWhereTheMethodExpectsABody() async throws {
        try await withTestServer { server in
            try await withTransport { transport in
                let post = try echo(of: try await transport.fetch(request(.post, "/echo", on: server, body: .empty)))
                let get = try echo(of: try await transport.fetch(request(.get, "/echo", on: server, body: .empty)))
                let framing = { (echo: EchoedRequest) in
                    echo.headers.filter { ["content-length", "transfer-encoding"].contains($0.first?.lowercased()) }
                }
                #expect(framing(post) == [["Content-Length", "0"]])
                #expect(framing(get) == [])
            }
        }
    }

    @Test func failingUploadStreamIsAnEncodingFailureWithTheRequest() async throws {
        struct Broken: Error {}
        try await withTestServer { server in
            try await withTransport { transport in
                let stream = AsyncThrowingStream<Data, any Error> { continuation in
                    continuation.yield(Data("partial".utf8))
                    continuation.finish(throwing: Broken())
                }
                let error = await courierError {
                    _ = try await transport.fetch(request(.post, "/echo", on: server, body: .stream(stream)))
                }
                #expect(error?.code == .encodingFailed)
                #expect(error?.underlying is Broken)
                #expect(error?.request?.url.path == "/echo")
            }
        }
    }

    @Test func oneShotStreamCannotBeSentTwice() async throws {
        try await withTestServer { server in
            try await withTransport { transport in
                let stream = AsyncStream<Data> { continuation in
                    continuation.yield(Data("once".utf8))
                    continuation.finish()
                }
                let sent = request(.post, "/echo", on: server, body: .stream(stream))
                let first = try echo(of: try await transport.fetch(sent))
                #expect(first.body == Data("once".utf8))
                let error = await courierError { _ = try await transport.fetch(sent) }
                #expect(error?.code == .bodyNotReplayable)
                #expect(error?.request != nil)
            }
        }
    }

    @Test func headReturnsTheHeadersAndAnEmptyBody() async throws {
        try await withTestServer { server in
            try await withTransport { transport in
                let response = try await transport.fetch(request(.head, "/bytes/100", on: server))
                #expect(response.status == .ok)
                #expect(response.headerFields[.contentLength] == "100")
                #expect(response.body.isEmpty)
                #expect(server.receivedRequests.last?.method == "HEAD")
            }
        }
    }

    @Test func customMethodIsSentAsWritten() async throws {
        try await withTestServer { server in
            try await withTransport { transport in
                let echo = try echo(
                    of: try await transport.fetch(request(HTTPRequest.Method("LINK")!, "/echo", on: server)))
                #expect(echo.method == "LINK")
            }
        }
    }

    @Test(arguments: [200, 201, 204, 301, 404, 418, 500, 503])
    func statusIsPassedThroughWithoutFollowingOrFailing(code: Int) async throws {
        try await withTestServer { server in
            try await withTransport { transport in
                let response = try await transport.fetch(request(.get, "/status/\(code)", on: server))
                #expect(response.status.code == code)
                #expect(response.request.url.path == "/status/\(code)")
            }
        }
    }

    @Test func responseHeaderLinesKeepTheirOrderAndCase() async throws {
        try await withTestServer(routes: [.manyHeaders] + Route.defaults) { server in
            try await withTransport { transport in
                let response = try await transport.fetch(request(.get, "/headers/3", on: server))
                #expect(
                    response.headerFields.map(\.name.rawName) == [
                        "X-Filler-0", "X-Filler-1", "X-Filler-2", "Content-Length",
                    ])
                #expect(response.text == "ok")
            }
        }
    }

    @Test func sequentialRequestsReuseOneConnection() async throws {
        try await withTestServer { server in
            try await withTransport { transport in
                let first = try await transport.fetch(request(.get, "/bytes/10", on: server))
                let second = try await transport.fetch(request(.post, "/echo", on: server, body: .string("again")))
                #expect(first.body.count == 10)
                #expect(try echo(of: second).body == Data("again".utf8))
                #expect(server.acceptedConnectionCount == 1)
                #expect(server.receivedRequests.count == 2)
            }
        }
    }

    @Test func thirtyTwoConcurrentRequestsAllSucceed() async throws {
        // AsyncHTTPClient keeps 8 connections per host and counts a request's wait for one of them
        // against the connect timeout: on a loaded machine the last of 32 can wait more than 10 s.
        var configuration = AsyncHTTPClientTransport.Configuration()
        configuration.connectTimeout = .seconds(120)
        try await withTestServer { server in
            try await withTransport(configuration) { transport in
                let sizes = try await withThrowingTaskGroup(of: (Int, Int).self) { group in
                    for index in 0..<32 {
                        group.addTask {
                            let response = try await transport.fetch(
                                request(.get, "/bytes/\(index * 1000)", on: server))
                            #expect(response.body == Data((0..<(index * 1000)).map { UInt8(truncatingIfNeeded: $0) }))
                            return (index, response.body.count)
                        }
                    }
                    return try await group.reduce(into: [Int: Int]()) { $0[$1.0] = $1.1 }
                }
                #expect(sizes.count == 32)
                #expect(sizes.allSatisfy { $0.value == $0.key * 1000 })
                #expect(server.receivedRequests.count == 32)
            }
        }
    }

    @Test func progressIsReportedForTheUploadAndTheDownload() async throws {
        try await withTestServer { server in
            try await withTransport { transport in
                let uploads = Recorder<[(Int64, Int64?)]>([])
                let downloads = Recorder<[(Int64, Int64?)]>([])
                let context = TransportContext(
                    uploadProgress: { sent, total in uploads.update { $0.append((sent, total)) } },
                    downloadProgress: { received, total in downloads.update { $0.append((received, total)) } })
                let payload = Data(repeating: 42, count: 200_000)
                let sent = try Request {
                    Method.POST
                    BaseURL(server.baseURL)
                    Endpoint("/echo")
                    RequestBody.data(payload)
                }
                let response = try await transport.fetch(sent, context: context)
                let upload = uploads.value
                let download = downloads.value
                #expect(upload.last?.0 == 200_000)
                #expect(upload.allSatisfy { $0.1 == 200_000 })
                #expect(zip(upload, upload.dropFirst()).allSatisfy { $0.0 < $1.0 })
                #expect(download.last?.0 == Int64(response.body.count))
                #expect(download.allSatisfy { $0.1 == Int64(response.body.count) })
                #expect(zip(download, download.dropFirst()).allSatisfy { $0.0 < $1.0 })
            }
        }
    }

    @Test func borrowedClientIsLeftRunningForItsOwner() async throws {
        try await withTestServer { server in
            let client = HTTPClient(configuration: HTTPClient.Configuration(redirectConfiguration: .disallow))
            do {
                let transport = AsyncHTTPClientTransport(client: client)
                #expect(try await transport.fetch(request(.get, "/status/204", on: server)).status == .noContent)
                try await transport.shutdown()
                #expect(try await transport.fetch(request(.get, "/status/202", on: server)).status == .accepted)
            } catch {
                try? await client.shutdown()
                throw error
            }
            try await client.shutdown()
        }
    }

    @Test func requestConvertsToHTTPClientRequest() throws {
        var headers = HTTPFields()
        headers[.accept] = "application/json"
        let converted = try HTTPClientRequest(
            Request(
                method: .put, url: URL(string: "https://example.com/a?b=1")!,
                headerFields: headers, body: .string("hi")))
        #expect(converted.url == "https://example.com/a?b=1")
        #expect(converted.method == .PUT)
        #expect(
            converted.headers.map { "\($0.name): \($0.value)" } == ["Accept: application/json", "Content-Length: 2"])
        #expect(converted.body != nil)
    }

    @Test func urlWithAnotherSchemeIsAnInvalidRequest() async throws {
        try await withTransport { transport in
            let error = await courierError {
                _ = try await transport.send(
                    Request(url: URL(string: "ftp://example.com/file")!), context: TransportContext())
            }
            #expect(error?.code == .invalidRequest)
            #expect(error?.request?.url.scheme == "ftp")
        }
    }
}
