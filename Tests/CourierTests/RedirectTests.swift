import Courier
import Foundation
import HTTPTypes
import Testing

@Suite("Redirects")
struct RedirectTests {
    @Test func relativeAndAbsoluteLocationsAreFollowed() async throws {
        let mock = MockTransport()
        mock.enqueue(.redirect(to: "../b?x=1"))
        mock.enqueue(.redirect(to: "https://api.example.com/c", status: .movedPermanently))
        mock.enqueue(.text("done"))
        let response = try await Client(transport: mock).send(try build("https://api.example.com/a/one") { Method.GET })
        #expect(
            mock.requests.map(\.url.absoluteString) == [
                "https://api.example.com/a/one", "https://api.example.com/b?x=1", "https://api.example.com/c",
            ])
        #expect(response.text == "done")
        #expect(response.request.url.absoluteString == "https://api.example.com/c")
    }

    @Test func seeOtherTurnsAPostIntoABodylessGet() async throws {
        let mock = MockTransport()
        mock.enqueue(.redirect(to: "/result", status: .seeOther))
        mock.enqueue(.text("ok"))
        let request = try build("https://api.example.com/submit") {
            Method.POST
            RequestBody.json(text: "{}")
        }
        _ = try await Client(transport: mock).send(request)
        let second = try #require(mock.requests.last)
        #expect(second.method == .get)
        #expect(second.body == nil)
        #expect(second.headerFields[.contentType] == nil)
    }

    @Test(arguments: [HTTPResponse.Status.temporaryRedirect, .permanentRedirect])
    func temporaryAndPermanentRedirectsResendTheBody(status: HTTPResponse.Status) async throws {
        let mock = MockTransport()
        mock.enqueue(.redirect(to: "/v2/submit", status: status))
        mock.enqueue(.text("ok"))
        let request = try build("https://api.example.com/submit") {
            Method.PUT
            RequestBody.string("payload")
        }
        _ = try await Client(transport: mock).send(request)
        let second = try #require(mock.requests.last)
        #expect(second.method == .put)
        #expect(try await second.body?.collect() == Data("payload".utf8))
    }

    @Test func aOneShotBodyIsNotSilentlyResent() async throws {
        let mock = MockTransport()
        mock.enqueue(.redirect(to: "/elsewhere", status: .temporaryRedirect))
        let request = try build("https://api.example.com/upload") {
            Method.POST
            RequestBody.stream(
                AsyncStream<Data> {
                    $0.yield(Data("x".utf8))
                    $0.finish()
                })
        }
        let error = await #expect(throws: CourierError.self) { try await Client(transport: mock).send(request) }
        #expect(error?.code == .bodyNotReplayable)
        #expect(error?.stage == "redirects")
    }

    @Test func credentialsDoNotFollowARedirectToAnotherOrigin() async throws {
        let mock = MockTransport()
        mock.enqueue(.redirect(to: "https://cdn.example.net/file"))
        mock.enqueue(.text("ok"))
        let request = try build("https://api.example.com/file") {
            Authorization.bearer("secret")
            Cookie("session", "s1")
            Header.custom("X-Keep").setValue("1")
        }
        _ = try await Client(transport: mock).send(request)
        let second = try #require(mock.requests.last)
        #expect(second.headerFields[.authorization] == nil)
        #expect(second.headerFields[.cookie] == nil)
        #expect(second.headerFields[HTTPField.Name("X-Keep")!] == "1")
    }

    @Test func credentialsStayOnTheSameOrigin() async throws {
        let mock = MockTransport()
        mock.enqueue(.redirect(to: "/other"))
        mock.enqueue(.text("ok"))
        _ = try await Client(transport: mock).send(
            try build("https://api.example.com/file") { Authorization.bearer("secret") })
        #expect(mock.requests.last?.headerFields[.authorization] == "Bearer secret")
    }

    @Test func aDowngradeToPlainHTTPIsRefused() async throws {
        let mock = MockTransport()
        mock.enqueue(.redirect(to: "http://api.example.com/insecure"))
        let error = await #expect(throws: CourierError.self) {
            try await Client(transport: mock).send(try build("https://api.example.com/") { Method.GET })
        }
        #expect(error?.code == .insecureConnection)
    }

    @Test func aLoopStopsAtTheRedirectLimit() async throws {
        let mock = MockTransport { request in .redirect(to: request.url.path == "/a" ? "/b" : "/a") }
        var configuration = Client.Configuration()
        configuration.limits.maxRedirects = 5
        let error = await #expect(throws: CourierError.self) {
            try await Client(transport: mock, configuration: configuration).send(
                try build("https://api.example.com/a") { Method.GET })
        }
        #expect(error?.code == .tooManyRedirects)
        #expect(mock.requests.count == 6)
    }

    @Test func exactlyTheLimitIsAllowed() async throws {
        let mock = MockTransport()
        for index in 1...3 { mock.enqueue(.redirect(to: "/\(index)")) }
        mock.enqueue(.text("arrived"))
        var configuration = Client.Configuration()
        configuration.limits.maxRedirects = 3
        let response = try await Client(transport: mock, configuration: configuration).send(
            try build("https://h.example/0") { Method.GET })
        #expect(response.text == "arrived")
    }

    @Test func historyKeepsEachRedirectWithTheRequestThatGotIt() async throws {
        let mock = MockTransport()
        mock.enqueue(
            MockResponse(status: .movedPermanently, headerFields: [.location: "/b"], body: Data("moved\n".utf8)))
        mock.enqueue(.redirect(to: "/c", status: .temporaryRedirect))
        mock.enqueue(.text("done"))
        let response = try await Client(transport: mock).send(try build("https://h.example/a") { Method.GET })
        #expect(response.text == "done")
        #expect(response.history.map(\.status) == [.movedPermanently, .temporaryRedirect])
        #expect(response.history.map(\.request.url.path) == ["/a", "/b"])
        #expect(response.history.map(\.text) == ["moved\n", ""])
        #expect(response.history.allSatisfy { !$0.isStreaming && $0.history.isEmpty })
    }

    @Test func aRedirectBodyOverTheHistoryLimitIsLeftEmptyAndTheRedirectStillFollowed() async throws {
        let mock = MockTransport()
        let large = Data(repeating: UInt8(ascii: "x"), count: Int(Response.historyBodyLimit) + 1)
        mock.enqueue(MockResponse(status: .found, headerFields: [.location: "/next"], body: large))
        mock.enqueue(
            MockResponse(
                status: .found, headerFields: [.location: "/last", .contentLength: "\(large.count)"], body: large))
        mock.enqueue(.text("arrived"))
        let response = try await Client(transport: mock).send(try build("https://h.example/") { Method.GET })
        #expect(response.text == "arrived")
        #expect(response.history.count == 2)
        #expect(response.history.allSatisfy { $0.body.isEmpty && !$0.isStreaming })
    }

    @Test func tooManyRedirectsCarriesTheLastRedirectRead() async throws {
        let mock = MockTransport { request in
            MockResponse(
                status: .found, headerFields: [.location: request.url.path == "/a" ? "/b" : "/a"],
                body: Data("to \(request.url.path)".utf8))
        }
        var configuration = Client.Configuration()
        configuration.limits.maxRedirects = 2
        let error = await #expect(throws: CourierError.self) {
            try await Client(transport: mock, configuration: configuration).send(
                try build("https://h.example/a") { Method.GET })
        }
        #expect(error?.response?.text == "to /a")
        #expect(error?.response?.isStreaming == false)
    }

    @Test func disabledRedirectsReturnThe3xxWithNoHistory() async throws {
        let mock = MockTransport()
        mock.enqueue(.redirect(to: "/x"))
        var configuration = Client.Configuration()
        configuration.redirects = .disabled
        let response = try await Client(transport: mock, configuration: configuration).send(
            try build("https://h.example/") { Method.GET })
        #expect(response.status == .found)
        #expect(response.history.isEmpty)
    }

    @Test func anInvalidLocationIsAnInvalidResponse() async throws {
        let mock = MockTransport()
        mock.enqueue(.redirect(to: "ftp://files.example.com/x"))
        let error = await #expect(throws: CourierError.self) {
            try await Client(transport: mock).send(try build("https://h.example/") { Method.GET })
        }
        #expect(error?.code == .invalidResponse)
    }
}

@Suite("Response framing")
struct ResponseFramingTests {
    @Test func unambiguousFramingPasses() {
        #expect(HTTPFields([HTTPField(name: .contentLength, value: "10")]).framingProblem == nil)
        #expect(HTTPFields([HTTPField(name: .transferEncoding, value: "chunked")]).framingProblem == nil)
        #expect(
            HTTPFields([HTTPField(name: .contentLength, value: "10"), HTTPField(name: .contentLength, value: "10")])
                .framingProblem == nil)
    }

    @Test func ambiguousFramingIsReported() {
        #expect(
            HTTPFields([
                HTTPField(name: .transferEncoding, value: "chunked"), HTTPField(name: .contentLength, value: "3"),
            ]).framingProblem != nil)
        #expect(
            HTTPFields([HTTPField(name: .contentLength, value: "10"), HTTPField(name: .contentLength, value: "11")])
                .framingProblem != nil)
        #expect(HTTPFields([HTTPField(name: .contentLength, value: "10, 11")]).framingProblem != nil)
        #expect(HTTPFields([HTTPField(name: .contentLength, value: "-1")]).framingProblem != nil)
    }
}
