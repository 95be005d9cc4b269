import Courier
import CourierAsyncHTTPClient
import CourierCurl
import CourierFoundation
import CourierRecording
import CourierTestServer
import CourierURLSession
import Foundation
import HTTPTypes
import ReadmeBlocks
import ReadmeExamples
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Every Swift example of the documentation (README.md and the DocC articles) is compiled in
/// `Examples/ReadmeExamples` and checked here.
@Suite("Documentation examples")
struct ReadmeExamplesTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test func everyExampleAppearsInADocumentAsCompiled() throws {
        let documents = try DocumentationSet.paths(repository: Self.root).map {
            try String(contentsOf: Self.root.appendingPathComponent($0), encoding: .utf8)
        }
        let directory = Self.root.appendingPathComponent("Examples/ReadmeExamples")
        var snippets: [SnippetRegions.Snippet] = []
        for file in try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        where file.hasSuffix(".swift") {
            snippets += SnippetRegions.snippets(
                in: try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8))
        }
        #expect(
            snippets.map(\.name) == [
                "transport", "declarative-networking", "overview", "getting-started-send", "building", "updating",
                "mock", "loaders", "proxy", "intro", "login", "headers", "upload",
                "repository", "repository-usage", "curl", "send", "cache", "bad-input", "events", "interceptors",
                "explain", "recording", "tls", "urlsession",
            ])
        for snippet in snippets {
            #expect(
                documents.contains { $0.contains("```swift\n" + snippet.code + "\n```") },
                "no document of the documentation set shows the \(snippet.name) example as compiled:\n\(snippet.code)")
        }
    }

    @Test func theBuildingRequestsExampleSendsARepeatedNameTwiceAndItsEditReplacesTheHeader() throws {
        let request = try DocCExamples.usersPage()
        #expect(request.url.absoluteString == "https://api.example.com/v1/users?page=2&tag=swift&tag=http")
        #expect(lines(request.headerFields) == ["Accept: application/json", "X-Trace: 1"])
        #expect(lines(try DocCExamples.retraced(request).headerFields) == ["Accept: application/json", "X-Trace: 2"])
    }

    @Test func theGettingStartedClientDecodesWhatTheServerAnswers() async throws {
        try await withTestServer { server in
            let request = try Request {
                BaseURL(server.baseURL)
                Endpoint("/bearer")
                Authorization.bearer("t0k")
                Query("token", "t0k")
            }
            #expect(try await DocCExamples.startSession(request).token == "t0k")
        }
    }

    @Test func theMockExampleRetriesTheScripted503AndDecodesTheUser() async throws {
        let (user, paths) = try await DocCExamples.userThroughMock(
            try Request {
                BaseURL("https://api.example.com")
                Endpoint("/v1/users/42")
            })
        #expect(user.id == 42)
        #expect(paths == ["/v1/users/42", "/v1/users/42"])
    }

    @Test func theOpeningExamplePostsAnyEncodableAsJSON() async throws {
        let request = try ReadmeExamples.intro(credentials: ["username": "ada"])
        #expect(request.method == .post)
        #expect(request.url.absoluteString == "https://api.example.com/v1/sessions")
        #expect(
            lines(request.wireHeaderFields) == [
                "Accept: application/json", "Content-Type: application/json", "Content-Length: 18",
            ])
        #expect(try await request.body?.collect() == Data(#"{"username":"ada"}"#.utf8))
    }

    @Test(arguments: [nil, "1000"] as [String?])
    func theDeclarativeNetworkingExampleBuildsTheUpload(sinceId: String?) throws {
        let template = URLRequest(url: try #require(URL(string: "https://social.example")))
        let request = try mediaUpload(
            template: template, accountId: "7", sinceId: sinceId, token: "t0k", jpeg: Data([0xFF, 0xD8]))
        #expect(request.httpMethod == "POST")
        #expect(
            request.url?.absoluteString == "https://social.example/v1/accounts/7/media?"
                + (sinceId.map { "sinceId=\($0)&" } ?? "") + "limit=20")
        #expect(request.httpBody == Data([0xFF, 0xD8]) && request.httpBodyStream == nil)

        let key = try #require(request.value(forHTTPHeaderField: "Idempotency-Key"))
        #expect(
            key.wholeMatch(of: #/[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/#) != nil,
            "a fresh lowercase UUID: \(key)")
        var expected = [
            "Authorization": "Bearer t0k",
            "Idempotency-Key": key,
            "Cache-Control": "no-cache, no-store",
            "Content-Type": "image/jpeg",
            "Content-Length": "2",
        ]
        // What AcceptLanguage() gives in this process (none for LANG=C); its output for each
        // environment is pinned in DeclarativeNetworkingAcceptLanguageTests.
        let languages = try Request(url: try #require(URL(string: "https://social.example"))).updating {
            AcceptLanguage()
        }
        if let value = languages.headerFields[.acceptLanguage] { expected["Accept-Language"] = value }
        #expect(request.allHTTPHeaderFields == expected)
    }

    @Test func theLoadersExampleRunsTheChainAndGivesAResult() async throws {
        let result = await ReadmeExamples.loaders(
            try Request {
                BaseURL("https://api.example.com")
                "status"
            })
        let response = try #require(result.response)
        #expect(response.status == .ok && result.request?.headerFields[HTTPField.Name("X-API-Version")!] == "3")
    }

    @Test func theURLSessionExampleSendsThroughURLSessionWithItsUserAgent() async throws {
        let client = try ReadmeExamples.makeURLSessionClient()
        let transport = try #require(client.transport as? URLSessionTransport)
        defer { transport.shutdown() }
        try await withTestServer { server in
            let response = try await client.send(Request(url: server.baseURL.appending(path: "status/204")))
            #expect(response.status == .noContent)
            #expect(
                server.receivedRequests.first?.headers.first { $0.name.lowercased() == "user-agent" }?.value
                    == "inventory-sync/2.1")
        }
    }

    @Test func theAsyncHTTPClientExampleSendsThroughAsyncHTTPClient() async throws {
        let client = ReadmeExamples.asyncHTTPClientClient
        let transport = try #require(client.transport as? AsyncHTTPClientTransport)
        try await withTestServer { server in
            let response = try await client.send(Request(url: server.baseURL.appending(path: "status/204")))
            #expect(response.status == .noContent)
            #expect(server.receivedRequests.map(\.target) == ["/status/204"])
        }
        try await transport.shutdown()
    }

    @Test func loginPostsJSONCredentials() async throws {
        let request = try ReadmeExamples.login()
        #expect(request.method == .post)
        #expect(request.url.absoluteString == "https://api.example.com/v1/sessions")
        #expect(
            lines(request.wireHeaderFields) == [
                "Accept: application/json",
                "Idempotency-Key: 3f1c7a52-login",
                "Content-Type: application/json",
                "Content-Length: 45",
            ])
        let body = try await #require(request.body).collect()
        let json = try JSONSerialization.jsonObject(with: body) as? [String: String]
        #expect(json == ["username": "ada", "password": "correct horse"])
    }

    @Test func groupedHeadersReadTopToBottom() throws {
        let request = try ReadmeExamples.search(term: "swift http", page: 2, locale: "en-GB")
        #expect(request.url.absoluteString == "https://api.example.com/v1/search?q=swift%20http&page=2")
        #expect(
            lines(request.wireHeaderFields) == [
                "Accept: application/json, text/plain;q=0.5",
                "Accept-Language: en-GB",
                "User-Agent: Courier-Example/1.0",
                "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhZGEifQ.c2lnbmF0dXJl",
                "Cache-Control: no-cache",
            ])
        let withoutLocale = try ReadmeExamples.search(term: "a&b", page: 1, locale: nil)
        #expect(withoutLocale.url.absoluteString == "https://api.example.com/v1/search?q=a%26b&page=1")
        #expect(withoutLocale.headerFields[.acceptLanguage] == nil)
    }

    @Test func uploadStreamsTheFileWithAKnownLength() async throws {
        let photo = FileManager.default.temporaryDirectory.appendingPathComponent("readme-\(UUID()).jpg")
        try Data("JPEGDATA".utf8).write(to: photo)
        defer { try? FileManager.default.removeItem(at: photo) }
        let request = try ReadmeExamples.upload(photo: photo)
        let expected = """
            --courier-boundary\r
            Content-Disposition: form-data; name="title"\r
            \r
            Harbour at dusk\r
            --courier-boundary\r
            Content-Disposition: form-data; name="photo"; filename="\(photo.lastPathComponent)"\r
            Content-Type: image/jpeg\r
            \r
            JPEGDATA\r
            --courier-boundary--\r

            """
        #expect(request.url.absoluteString == "https://api.example.com/v1/albums/7/photos")
        #expect(request.headerFields[.contentType] == "multipart/form-data; boundary=courier-boundary")
        #expect(request.wireHeaderFields[.contentLength] == String(expected.utf8.count))
        #expect(try await request.body?.collect() == Data(expected.utf8))
        #expect(request.body?.segments?.contains(.file(photo, length: 8)) == true)
    }

    @Test func repositoryMaterialisesRequests() throws {
        let user = try ReadmeExamples.users.getUser("42").request
        #expect(user.url.absoluteString == "https://api.example.com/v1/users/42")
        #expect(lines(user.headerFields) == ["Accept: application/json"])
        let hostile = try ReadmeExamples.users.getUser("../admin").request
        #expect(hostile.url.absoluteString == "https://api.example.com/v1/users/..%2Fadmin")
        #expect(try ReadmeExamples.userRequest().url.absoluteString == "https://api.example.com/v1/users/42")
        let list = try ReadmeExamples.users.listUsers(3).request
        #expect(list.url.absoluteString == "https://api.example.com/v1/users?page=3")
    }

    @Test func curlCommandIsShellQuotedAsTheBuilderArticleShowsIt() throws {
        let article = try String(
            contentsOf: Self.root.appendingPathComponent("Sources/Courier/Courier.docc/BuilderByExample.md"),
            encoding: .utf8)
        #expect(
            article.contains(
                "<!-- output: what curlCommand() returns -->\n```sh\n\(try ReadmeExamples.curlCommand())\n```"))
        #expect(
            try ReadmeExamples.curlCommand() == """
                curl 'https://api.example.com/v1/users/42' \\
                  --request PATCH \\
                  -H 'Content-Type: application/json' \\
                  -H 'Content-Length: 24' \\
                  -H 'Accept:' \\
                  -H 'User-Agent:' \\
                  --data-binary '{"bio": "It'\\''s '\\''quoted'\\''"}'
                """)
    }

    @Test func theRecordingExampleRecordsOnceThenReplaysAndWritesAnArchive() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("readme-recording-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let cassette = directory.appendingPathComponent("users.har")
        let archive = directory.appendingPathComponent("session.har")
        try await withTestServer { server in
            let request = try Request {
                BaseURL(server.baseURL)
                Endpoint("/echo/users")
            }
            let live = try await ReadmeExamples.sendRecorded(request, cassette: cassette, archive: archive)
            #expect(live.status == .ok)
            #expect(server.receivedRequests.count == 1)
            let replayed = try await ReadmeExamples.sendRecorded(request, cassette: cassette, archive: archive)
            #expect(replayed.body == live.body)
            #expect(server.receivedRequests.count == 1, "the second answer came from the cassette")
            #expect(try HTTPArchive(contentsOf: archive).log.entries.count == 1)
        }
    }

    @Test func sendGoesThroughTheInterceptorToARealServer() async throws {
        try await withTestServer { server in
            let echo = try await ReadmeExamples.fetchEcho(from: server.baseURL)
            #expect(echo.method == "GET")
            #expect(echo.path == "/echo/hello")
            let names = echo.headers.map { $0[0].lowercased() }
            #expect(names.contains("x-request-id"))
            #expect(echo.headers.contains(["Accept", "application/json"]))
        }
    }

    @Test func theCacheExampleAnswersTheSecondRequestFromItsFolder() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("readme-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try await withTestServer { server in
            let url = server.baseURL.appendingPathComponent("cache/readme").appending(queryItems: [
                URLQueryItem(name: "cc", value: "max-age=60")
            ])
            let statuses = try await ReadmeExamples.fetchTwice(url, cacheFolder: folder)
            #expect(statuses.first??.hasPrefix("Courier; fwd=uri-miss; fwd-status=200; stored; ttl=") == true)
            #expect(statuses.last??.hasPrefix("Courier; hit; ttl=") == true)
        }
    }

    @Test func badInputIsATypedErrorNamingTheBlock() throws {
        let error = try #require(ReadmeExamples.injectedHeader())
        #expect(error.code == .invalidRequest)
        #expect(error.source == "Header.custom")
    }

    @Test func eventsStreamFromARealServerUntilTheLoopEnds() async throws {
        try await withTestServer { server in
            let ticks = try await ReadmeExamples.firstTicks(from: server.baseURL, count: 2)
            #expect(ticks.map(\.id) == ["1", "2"])
            #expect(ticks.first?.data == "event 1\nof 1000")
            #expect(server.receivedRequests.count == 1)
        }
    }

    @Test func theProductionClientRegistersEveryBuiltInInTheRecommendedOrder() async throws {
        let client = ReadmeExamples.productionClient { "courier-test-token" }
        #expect(
            client.interceptors.map(\.name) == [
                "LoggingInterceptor", "MetricsInterceptor", "TracingInterceptor", "SingleFlightInterceptor",
                "RetryInterceptor", "ConcurrencyLimitInterceptor", "AuthenticationInterceptor", "ValidationInterceptor",
            ])
        try await withTestServer { server in
            let response = try await client.send(Request(url: server.baseURL.appending(path: "bearer")))
            #expect(response.status == .ok)
            #expect(server.receivedRequests.first?.header("authorization") == "Bearer courier-test-token")
        }
    }

    @Test func explainShowsEachStage() async throws {
        try await withTestServer { server in
            let client = Client(interceptors: [ValidationInterceptor()])
            let explanation = try #require(
                await ReadmeExamples.explain(
                    Request(url: server.baseURL.appending(path: "status/204")),
                    with: client))
            #expect(explanation.steps.map(\.stage) == ["ValidationInterceptor", "transport"])
            #expect(explanation.text.contains("→ 204 No Content"))
        }
    }
}
