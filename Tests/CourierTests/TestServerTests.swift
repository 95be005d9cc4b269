import Courier
import Foundation
import Testing

@testable import CourierTestServer

@Suite("TestServer")
struct TestServerTests {
    @Test func echoCollectsAChunkedBodyAndKeepsHeaderOrder() async throws {
        try await withTestServer { server in
            let result = try await Shell.run(
                """
                printf 'one\\000two' | curl -s '\(server.baseURL.absoluteString)/echo/a%20b/c?x=%5B1%5D&y' \
                  -H 'User-Agent:' -H 'Accept:' -H 'Content-Type:' -H 'Expect:' \
                  -H 'X-B: 2' -H 'x-a: 1' -H 'Transfer-Encoding: chunked' --data-binary @-
                """)
            let echo = try JSONDecoder().decode(EchoedRequest.self, from: result.standardOutput)
            #expect(echo.method == "POST")
            #expect(echo.path == "/echo/a%20b/c")
            #expect(echo.query == "x=%5B1%5D&y")
            #expect(
                echo.headers == [
                    ["Host", "127.0.0.1:\(server.port)"], ["X-B", "2"], ["x-a", "1"],
                    ["Transfer-Encoding", "chunked"],
                ])
            #expect(echo.body == Data("one\0two".utf8))
            #expect(echo.bodyLength == 7)
        }
    }

    @Test func echoAnswersAnEmptyQueryForATargetWithoutOne() async throws {
        try await withTestServer { server in
            let result = try await Shell.run("curl -s '\(server.baseURL.absoluteString)/echo'")
            let echo = try JSONDecoder().decode(EchoedRequest.self, from: result.standardOutput)
            #expect(echo.path == "/echo")
            #expect(echo.query == "")
            #expect(echo.bodyLength == 0)
        }
    }

    @Test(arguments: [("418", "418"), ("204", "204"), ("599", "599"), ("99", "400"), ("abc", "400")])
    func statusRouteAnswersWithTheRequestedCode(code: String, expected: String) async throws {
        try await withTestServer { server in
            let result = try await Shell.run(
                "curl -s -o /dev/null -w '%{http_code}' '\(server.baseURL.absoluteString)/status/\(code)'")
            #expect(String(decoding: result.standardOutput, as: UTF8.self) == expected)
        }
    }

    @Test func bytesRouteSendsCountingBytes() async throws {
        try await withTestServer { server in
            let result = try await Shell.run("curl -s '\(server.baseURL.absoluteString)/bytes/300'")
            #expect(result.standardOutput == Data((0..<300).map { UInt8(truncatingIfNeeded: $0) }))
        }
    }

    @Test func unknownPathIsNotFoundAndWrongMethodIsNotAllowed() async throws {
        let onlyGet = Route("/only-get", methods: ["GET"]) { _ in .text("ok") }
        try await withTestServer(routes: Route.defaults + [onlyGet]) { server in
            let base = server.baseURL.absoluteString
            let result = try await Shell.run(
                """
                curl -s -o /dev/null -w '%{http_code} ' '\(base)/nowhere' \
                  && curl -s -o /dev/null -w '%{http_code} ' -X DELETE '\(base)/only-get' \
                  && curl -s -w ' %{http_code}' '\(base)/only-get'
                """)
            #expect(String(decoding: result.standardOutput, as: UTF8.self) == "404 405 ok 200")
        }
    }

    @Test func headGetsHeadersWithoutABody() async throws {
        try await withTestServer { server in
            let result = try await Shell.run("curl -s --head '\(server.baseURL.absoluteString)/bytes/10'")
            let head = String(decoding: result.standardOutput, as: UTF8.self)
            #expect(head.hasPrefix("HTTP/1.1 200 OK\r\n"))
            #expect(head.contains("Content-Length: 10\r\n"))
            #expect(head.hasSuffix("\r\n\r\n"))
        }
    }

    @Test func connectionIsKeptAliveBetweenRequests() async throws {
        try await withTestServer { server in
            let url = server.baseURL.absoluteString + "/status/200"
            let result = try await Shell.run("curl -s -w '%{num_connects} ' '\(url)' '\(url)' '\(url)'")
            #expect(String(decoding: result.standardOutput, as: UTF8.self) == "1 0 0 ")
        }
    }

    @Test func expectContinueIsAnsweredWithoutWaiting() async throws {
        try await withTestServer { server in
            let result = try await Shell.run(
                """
                curl -s -o /dev/null -w '%{http_code} %{time_total}' --expect100-timeout 60 \
                  -H 'Expect: 100-continue' --data-binary 'body' '\(server.baseURL.absoluteString)/echo'
                """)
            let fields = String(decoding: result.standardOutput, as: UTF8.self).split(separator: " ")
            #expect(fields.first == "200")
            #expect((fields.last.flatMap { Double($0) } ?? 99) < 20, "well short of curl's 60 s wait for 100 Continue")
            #expect(server.receivedRequests.first?.header("expect") == "100-continue")
        }
    }

    @Test func receivedRequestsAreRecordedInOrder() async throws {
        try await withTestServer { server in
            let base = server.baseURL.absoluteString
            _ = try await Shell.run(
                "curl -s -o /dev/null '\(base)/status/201' --next -s -o /dev/null -X PUT -d x '\(base)/echo?q'")
            let requests = server.receivedRequests
            #expect(requests.map(\.method) == ["GET", "PUT"])
            #expect(requests.map(\.target) == ["/status/201", "/echo?q"])
            #expect(requests.last?.query == "q")
            #expect(requests.last?.body == Data("x".utf8))
        }
    }

    @Test func shutdownStopsListening() async throws {
        let server = try await TestServer.start()
        try await server.shutdown()
        try await server.shutdown()
        let result = try await Shell.run("curl -s --max-time 30 '\(server.baseURL.absoluteString)/echo'")
        // Suites start servers in parallel, so another test's server may have been given the freed
        // port by now and answer (curl exit 0 rather than 7, could not connect); what must hold is
        // that this server took no request.
        #expect(server.receivedRequests.isEmpty, "curl exit code \(result.status)")
    }

    @Test(arguments: ["0.0.0.0", "10.0.0.1", "::"])
    func refusesAddressesOutsideLoopback(host: String) async throws {
        await #expect(throws: TestServerError.self) { try await TestServer.start(host: host) }
    }

    @Test func routePatternsMatchSegmentsAndCaptureParameters() {
        let echo = Route("/echo/**") { _ in TestServerResponse() }
        #expect(echo.match(path: "/echo") == [:])
        #expect(echo.match(path: "/echo/a/b") == [:])
        #expect(echo.match(path: "/echoes") == nil)
        let status = Route("/status/{code}") { _ in TestServerResponse() }
        #expect(status.match(path: "/status/404") == ["code": "404"])
        #expect(status.match(path: "/status/a%20b") == ["code": "a b"])
        #expect(status.match(path: "/status/") == nil)
        #expect(status.match(path: "/status/1/2") == nil)
    }
}
