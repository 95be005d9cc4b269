import Courier
import Foundation
import HTTPTypes
import Testing

/// Records the order stages see the request and the response.
final class Trace: Sendable {
    private let events = Protected<[String]>([])
    func add(_ event: String) { events.withLock { $0.append(event) } }
    var all: [String] { events.withLock { $0 } }
}

struct Tagging: Interceptor {
    let tag: String
    let trace: Trace
    var name: String { "Tagging(\(tag))" }

    func intercept(_ request: Request, context: InterceptorContext, next: Next) async throws -> Response {
        trace.add("\(tag) request")
        let sent = try request.updating { Header.custom("X-Seen").addValue(tag) }
        var response = try await next(sent)
        trace.add("\(tag) response")
        response.headerFields[HTTPField.Name("X-Back")!] =
            (response.headerFields[HTTPField.Name("X-Back")!].map { $0 + "," } ?? "") + tag
        return response
    }
}

@Suite("Interceptor chain")
struct InterceptorChainTests {
    let request = try! build("https://api.example.com/items") { Method.GET }

    @Test func interceptorsRunInRegistrationOrderAroundTheTransport() async throws {
        let trace = Trace()
        let mock = MockTransport()
        mock.enqueue(.text("ok"))
        let client = Client(
            transport: mock, interceptors: [Tagging(tag: "a", trace: trace), Tagging(tag: "b", trace: trace)])
        let response = try await client.send(request, interceptors: [Tagging(tag: "c", trace: trace)])
        #expect(trace.all == ["a request", "b request", "c request", "c response", "b response", "a response"])
        #expect(mock.requests.first?.headerFields[HTTPField.Name("X-Seen")!] == "a, b, c")
        #expect(response.headerFields[HTTPField.Name("X-Back")!] == "c,b,a")
        #expect(response.text == "ok")
    }

    @Test func requestLevelInterceptorsComeFromTheInterceptBlock() async throws {
        let trace = Trace()
        let mock = MockTransport()
        mock.enqueue(.status(.noContent))
        let client = Client(transport: mock, interceptors: [Tagging(tag: "client", trace: trace)])
        let request = try build("https://api.example.com") { Intercept(Tagging(tag: "request", trace: trace)) }
        _ = try await client.send(request)
        #expect(trace.all == ["client request", "request request", "request response", "client response"])
    }

    @Test func anInterceptorCanAnswerWithoutCallingNext() async throws {
        let mock = MockTransport()
        let cache = ClosureInterceptor("cache") { request, _, _ in
            Response(status: .ok, body: Data("cached".utf8), request: request)
        }
        let response = try await Client(transport: mock, interceptors: [cache]).send(request)
        #expect(response.text == "cached")
        #expect(mock.requests.isEmpty)
    }

    @Test func callingNextAgainIsSeenDownstreamAsTheNextAttempt() async throws {
        let attempts = Trace()
        let mock = MockTransport()
        mock.enqueue(.status(.serviceUnavailable))
        mock.enqueue(.status(.serviceUnavailable))
        mock.enqueue(.text("finally"))
        let retry = ClosureInterceptor("retry") { request, _, next in
            var response = try await next(request)
            while response.status == .serviceUnavailable {
                response.bodyStream?.discard()
                response = try await next(request)
            }
            return response
        }
        let observer = ClosureInterceptor("observer") { request, context, next in
            attempts.add("\(context.attempt)")
            return try await next(request)
        }
        let response = try await Client(transport: mock, interceptors: [retry, observer]).send(request)
        #expect(response.text == "finally")
        #expect(attempts.all == ["1", "2", "3"])
        #expect(mock.requests.count == 3)
    }

    @Test func everyStageSharesTheRequestID() async throws {
        let ids = Trace()
        let mock = MockTransport()
        mock.enqueue(.status(.ok))
        mock.enqueue(.status(.ok))
        let record = ClosureInterceptor { request, context, next in
            ids.add(context.requestID)
            return try await next(request)
        }
        let client = Client(transport: mock, interceptors: [record, record])
        _ = try await client.send(request)
        _ = try await client.send(request)
        let seen = ids.all
        #expect(seen[0] == seen[1])
        #expect(seen[2] == seen[3])
        #expect(seen[0] != seen[2])
        #expect(seen.allSatisfy { $0.hasPrefix("req-") && $0.count > 4 })
    }

    /// A client's identifiers are spelled only when read; one given or set whole is kept as it is.
    @Test func aRequestIDGivenOrSetIsReadBackAsItIs() {
        var context = InterceptorContext(requestID: "given")
        #expect(context.requestID == "given")
        context.requestID = "set"
        #expect(context.requestID == "set")
        #expect(context.attempt == 1)
    }

    @Test func anErrorThrownByAnInterceptorNamesIt() async throws {
        struct Boom: Error {}
        let failing = ClosureInterceptor("signer") { _, _, _ in throw Boom() }
        let passing = ClosureInterceptor("logger") { request, _, next in try await next(request) }
        let client = Client(transport: MockTransport(), interceptors: [passing, failing])
        let error = await #expect(throws: CourierError.self) { try await client.send(request) }
        #expect(error?.code == .interceptorFailed)
        #expect(error?.stage == "signer")
        #expect(error?.underlying is Boom)
    }

    @Test func aTransportErrorPassingThroughKeepsItsStage() async throws {
        let mock = MockTransport()
        mock.enqueue(.failure(.cannotConnect))
        let passing = ClosureInterceptor("logger") { request, _, next in try await next(request) }
        let error = await #expect(throws: CourierError.self) {
            try await Client(transport: mock, interceptors: [passing]).send(request)
        }
        #expect(error?.code == .cannotConnect)
        #expect(error?.stage == "transport")
        #expect(error?.request?.url == request.url)
    }

    @Test func aTypedErrorFromAnInterceptorKeepsItsCode() async throws {
        let validator = ClosureInterceptor("validator") { request, _, next in
            let response = try await next(request)
            throw CourierError(.unacceptableStatus, "no", response: response)
        }
        let mock = MockTransport()
        mock.enqueue(.status(.ok))
        let error = await #expect(throws: CourierError.self) {
            try await Client(transport: mock, interceptors: [validator]).send(request)
        }
        #expect(error?.code == .unacceptableStatus)
        #expect(error?.stage == "validator")
        #expect(error?.description.contains("[validator]") == true)
    }

    @Test func cancellingTheTaskStopsTheSend() async throws {
        let mock = MockTransport()
        mock.enqueue(MockResponse(status: .ok, delay: .seconds(90)))
        let client = Client(transport: mock)
        let request = self.request
        let task = Task { try await client.send(request) }
        try await Task.sleep(for: .milliseconds(50))
        let started = ContinuousClock.now
        task.cancel()
        let result = await task.result
        // Loose enough for a cooperative pool that a loaded machine keeps busy for seconds, far below the 90 s delay.
        #expect(ContinuousClock.now - started < .seconds(20))
        #expect(throws: CourierError.self) { try result.get() }
        #expect((try? result.get()) == nil)
        if case .failure(let error as CourierError) = result { #expect(error.code == .cancelled) }
    }

    @Test func aBufferedBodyIsBoundedByTheLimit() async throws {
        let mock = MockTransport()
        mock.enqueue(MockResponse(body: Data(count: 2_000)))
        var configuration = Client.Configuration()
        configuration.limits.maxBodyBytes = 1_000
        let error = await #expect(throws: CourierError.self) {
            try await Client(transport: mock, configuration: configuration).send(request)
        }
        #expect(error?.code == .limitExceeded)
    }

    @Test func streamReturnsTheBodyUnread() async throws {
        let mock = MockTransport()
        mock.enqueue(.text("streamed"))
        let response = try await Client(transport: mock).stream(request)
        #expect(response.isStreaming)
        #expect(try await response.bodyStream?.collect(upTo: 100) == Data("streamed".utf8))
    }

    @Test func theMockRecordsRequestsAndFailsClearlyWhenUnscripted() async throws {
        let mock = MockTransport()
        let error = await #expect(throws: CourierError.self) { try await Client(transport: mock).send(request) }
        #expect(error?.message.contains("no response for GET https://api.example.com/items") == true)
        #expect(mock.requests.count == 1)
    }

    @Test func theMockHandlerAnswersAfterTheScript() async throws {
        let mock = MockTransport { request in .text("handled \(request.url.path)") }
        mock.enqueue(.text("scripted"))
        let client = Client(transport: mock)
        #expect(try await client.send(request).text == "scripted")
        #expect(try await client.send(request).text == "handled /items")
    }
}
