import Courier
import CourierCurl
import CourierTestServer
import Foundation
import HTTPTypes
import Testing

@Suite("Explain")
struct ExplainTests {
    struct StampVersion: Interceptor {
        func intercept(_ request: Request, context: InterceptorContext, next: Next) async throws -> Response {
            var stamped = request
            stamped.headerFields[HTTPField.Name("X-Client-Version")!] = "2.1"
            stamped.headerFields[.userAgent] = nil
            var response = try await next(stamped)
            response.headerFields[HTTPField.Name("X-Explained")!] = "yes"
            return response
        }
    }

    static func client() -> Client {
        let sleeps = SleepRecorder()
        return Client(interceptors: [
            StampVersion(),
            RetryInterceptor(budget: .unlimited, sleep: sleeps.sleep, random: { 0 }),
            AuthenticationInterceptor.bearer(token: "top-secret-token") { _ in "unused" },
        ])
    }

    @Test func recordsWhichStageChangedWhatAndHowLongEachTook() async throws {
        try await withTestServer { server in
            let (client, recorder) = Self.client().explaining()
            let request = try server.url("/flaky/\(uniqueKey())/1").buildRequest {
                Headers { UserAgentHeader("test/1") }
            }
            let response = try await client.send(request)
            #expect(response.status == .ok)
            #expect(response.headerFields[HTTPField.Name("X-Explained")!] == "yes")

            let explanation = try #require(recorder.last)
            #expect(
                explanation.steps.map(\.stage) == [
                    "StampVersion", "RetryInterceptor", "AuthenticationInterceptor", "transport",
                    "AuthenticationInterceptor", "transport",
                ])
            #expect(explanation.steps.map(\.depth) == [0, 1, 2, 3, 2, 3])
            #expect(explanation.steps.map(\.attempt) == [1, 1, 1, 1, 2, 2])
            #expect(explanation.outcome == "200 OK")

            let stamp = explanation.steps[0]
            #expect(
                stamp.requestChanges == [
                    .init(.headerRemoved, field: "User-Agent", from: "test/1"),
                    .init(.headerAdded, field: "X-Client-Version", to: "2.1"),
                ])
            #expect(stamp.responseChanges == [.init(.headerAdded, field: "X-Explained", to: "yes")])

            let retry = explanation.steps[1]
            #expect(retry.nextCalls == 2)
            #expect(retry.requestChanges.isEmpty)
            #expect(explanation.steps[2].outcome == "503 Service Unavailable")
            #expect(
                explanation.steps[2].requestChanges == [.init(.headerAdded, field: "Authorization", to: "<redacted>")])

            for step in explanation.steps {
                #expect(step.durationMilliseconds >= step.ownMilliseconds)
                #expect(step.ownMilliseconds >= 0)
            }
            #expect(explanation.steps[0].durationMilliseconds >= explanation.steps[1].durationMilliseconds)
        }
    }

    @Test func textAndJSONHideSecretsAndJSONRoundTrips() async throws {
        try await withTestServer { server in
            let (client, recorder) = Self.client().explaining()
            _ = try await client.send(Request(url: server.url("/flaky/\(uniqueKey())/1")))
            let explanation = try #require(recorder.last)
            let text = explanation.text
            let json = try explanation.json()
            #expect(!text.contains("top-secret-token"))
            #expect(!String(decoding: json, as: UTF8.self).contains("top-secret-token"))
            #expect(try JSONDecoder().decode(Explanation.self, from: json) == explanation)
            let lines = text.split(separator: "\n").map(String.init)
            #expect(lines[0].hasPrefix("GET \(server.baseURL.absoluteString)/flaky/"))
            #expect(lines[0].contains("→ 200 OK in "))
            #expect(lines.contains { $0.hasPrefix("    RetryInterceptor ") && $0.contains("next ×2") })
            #expect(lines.contains("        + Authorization: <redacted>"))
            #expect(lines.contains { $0.hasPrefix("        transport ") && $0.contains("[attempt 2]") })
            let keys = try #require(JSONSerialization.jsonObject(with: json) as? [String: Any]).keys.sorted()
            #expect(keys == ["request", "steps"])
        }
    }

    @Test func aThrownErrorIsRecordedAndAttributedAsWithoutExplaining() async throws {
        try await withTestServer { server in
            let (client, recorder) = Client(interceptors: [ValidationInterceptor()]).explaining()
            let error = await #expect(throws: CourierError.self) {
                try await client.send(Request(url: server.url("/status/418")))
            }
            #expect(error?.stage == "ValidationInterceptor")
            let explanation = try #require(recorder.last)
            #expect(explanation.steps.map(\.stage) == ["ValidationInterceptor", "transport"])
            #expect(explanation.steps[0].outcome.hasPrefix("error unacceptableStatus: GET "))
            #expect(explanation.steps[1].outcome == "418 I'm a teapot")
        }
    }

    @Test func aStageThatAnswersItselfAndAResponseRewriteAreShown() async throws {
        let cache = ClosureInterceptor("cache") { request, _, _ in
            Response(status: .ok, body: Data("cached".utf8), request: request)
        }
        let softenErrors = ClosureInterceptor("soften") { request, _, next in
            var response = try await next(request)
            response.status = .ok
            return response
        }
        let (client, recorder) = Client(transport: MockTransport(), interceptors: [softenErrors, cache]).explaining()
        _ = try await client.send(Request(url: URL(string: "https://api.example.com/x")!))
        let explanation = try #require(recorder.last)
        #expect(explanation.steps.map(\.stage) == ["soften", "cache"])
        #expect(explanation.steps[1].nextCalls == 0)
        #expect(explanation.text.contains("answered itself"))
        #expect(explanation.steps[0].responseChanges.isEmpty)

        let (rewriting, rewrites) = Client(
            transport: {
                let mock = MockTransport()
                mock.enqueue(.status(.notFound))
                return mock
            }(), interceptors: [softenErrors]
        ).explaining()
        _ = try await rewriting.send(Request(url: URL(string: "https://api.example.com/x")!))
        #expect(rewrites.last?.steps.first?.responseChanges == [.init(.status, from: "404 Not Found", to: "200 OK")])
    }

    @Test func concurrentSendsAreRecordedSeparately() async throws {
        try await withTestServer { server in
            let (client, recorder) = Client(interceptors: [StampVersion()]).explaining()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<5 {
                    group.addTask { _ = try await client.send(Request(url: server.url("/status/20\(index)"))) }
                }
                try await group.waitForAll()
            }
            #expect(recorder.explanations.count == 5)
            for explanation in recorder.explanations {
                #expect(explanation.steps.map(\.stage) == ["StampVersion", "transport"])
            }
        }
    }

    @Test func methodURLAndBodyChangesAndARedirectAreRecorded() async throws {
        try await withTestServer { server async throws in
            let rewrite = ClosureInterceptor("rewrite") { request, _, next in
                var changed = request
                changed.method = .post
                changed.url = server.url("/redirect-to?url=/status/204")
                changed.body = .string("{}", type: .json)
                return try await next(changed)
            }
            let (client, recorder) = Client(interceptors: [rewrite]).explaining()
            let response = try await client.send(Request(url: server.url("/echo")))
            #expect(response.status == .noContent)
            let steps = try #require(recorder.last?.steps)
            #expect(
                steps[0].requestChanges == [
                    .init(.method, from: "GET", to: "POST"),
                    .init(
                        .url, from: server.url("/echo").absoluteString,
                        to: server.url("/redirect-to?url=/status/204").absoluteString),
                    .init(.bodyAdded, to: "(2 bytes, application/json)"),
                ])
            #expect(steps[1].stage == "transport")
            #expect(
                steps[1].requestChanges == [
                    .init(
                        .url, from: server.url("/redirect-to?url=/status/204").absoluteString,
                        to: server.url("/status/204").absoluteString)
                ])
            #expect(recorder.last?.text.contains("url \(server.url("/echo").absoluteString) → ") == true)
        }
    }
}
