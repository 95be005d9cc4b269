import Foundation
import Testing

@testable import CourierTestServer

/// Fault effects × phases and raw responses, observed by curl's exit code and by a raw socket.
///
/// curl exit codes: 1 unsupported protocol (HTTP/0.9 or a bad status code), 7 connect failed,
/// 8 weird reply, 18 partial body, 28 timeout, 52 empty reply (FIN before any byte),
/// 55 send failure, 56 receive failure (RST).
@Suite("TestServer faults")
struct TestServerFaultTests {
    /// A request body large enough that the client is still sending when a `midRequestBody` fault hits.
    private static let uploadBody =
        "head -c 3000000 /dev/zero | curl -s --max-time 30 -H 'Expect:' --data-binary @- -o /dev/null"

    static let routeFaults: [(ConnectionFault.Effect, ConnectionFault.Phase, Set<Int32>)] = [
        (.close, .afterRequest, [52]),
        // curl 7.88 takes a head cut short by FIN as complete (exit 0); the raw-socket test below pins the bytes.
        (.close, .atResponseStart, [0]),
        (.close, .midResponseBody, [18]),
        (.close, .midRequestBody, [52]),
        (.reset, .afterRequest, [56]),
        (.reset, .atResponseStart, [56]),
        (.reset, .midResponseBody, [56]),
        (.reset, .midRequestBody, [55, 56]),  // the RST may hit curl's send or its receive
        (.stall, .afterRequest, [28]),
        (.stall, .atResponseStart, [28]),
        (.stall, .midResponseBody, [28]),
        (.stall, .midRequestBody, [28]),
        (.malformed, .afterRequest, [1]),
        (.malformed, .atResponseStart, [8]),
        (.malformed, .midResponseBody, [56]),
        (.malformed, .midRequestBody, [1]),
    ]

    @Test(arguments: routeFaults)
    func faultRouteInjectsTheEffectAtThePhase(
        effect: ConnectionFault.Effect, phase: ConnectionFault.Phase,
        expected: Set<Int32>
    ) async throws {
        try await withTestServer { server in
            let url = "'\(server.baseURL.absoluteString)/fault/\(effect.rawValue)/\(phase.rawValue)'"
            // Only a stall may time out; other faults get time enough to show on a loaded machine.
            let maxTime = effect == .stall ? "0.5" : "30"
            let command =
                phase == .midRequestBody
                ? "head -c 3000000 /dev/zero | curl -s --max-time \(maxTime) -H 'Expect:' --data-binary @- -o /dev/null \(url)"
                : "curl -s --max-time \(maxTime) -o /dev/null \(url)"
            let result = try await Shell.run(command)
            #expect(expected.contains(result.status), "curl exit \(result.status)")
        }
    }

    static let connectFaults: [(ConnectionFault.Effect, Set<Int32>)] = [
        (.close, [52]),
        // Depending on when the RST lands: before curl has checked its connect (7), before or
        // after its request is sent (55, 56), or, rarely, read as an empty reply (52).
        (.reset, [7, 52, 55, 56]),
        (.stall, [28]),
        (.malformed, [1]),
    ]

    @Test(arguments: connectFaults)
    func plannedFaultAtConnectHitsBeforeTheRequestIsRead(
        effect: ConnectionFault.Effect, expected: Set<Int32>
    ) async throws {
        try await withTestServer(faultPlan: [ConnectionFault(effect, at: .atConnect)]) { server in
            let maxTime = effect == .stall ? "0.5" : "30"
            let result = try await Shell.run(
                "curl -s --max-time \(maxTime) -o /dev/null '\(server.baseURL.absoluteString)/echo'")
            #expect(expected.contains(result.status), "curl exit \(result.status)")
            #expect(server.receivedRequests.isEmpty)
        }
    }

    @Test func plannedFaultsHitTheNextConnectionsInOrderThenServingResumes() async throws {
        try await withTestServer { server in
            server.planFaults([
                ConnectionFault(.close, at: .afterRequest),
                ConnectionFault(.close, at: .midResponseBody, afterBytes: 1000),
            ])
            let url = "'\(server.baseURL.absoluteString)/bytes/5000'"
            let result = try await Shell.run(
                """
                curl -s --max-time 30 -o /dev/null -w '%{size_download} ' \(url); echo $?; \
                curl -s --max-time 30 -o /dev/null -w '%{size_download} ' \(url); echo $?; \
                curl -s --max-time 30 -o /dev/null -w '%{size_download} ' \(url); echo $?
                """)
            #expect(String(decoding: result.standardOutput, as: UTF8.self) == "0 52\n1000 18\n5000 0\n")
        }
    }

    @Test func midRequestBodyFaultKeepsTheBytesBeforeTheCut() async throws {
        try await withTestServer { server in
            let result = try await Shell.run(
                "\(Self.uploadBody) '\(server.baseURL.absoluteString)/fault/close/midRequestBody?after_bytes=1000'")
            #expect(result.status == 52)
            #expect(server.receivedRequests.last?.body == Data(count: 1000))
        }
    }

    @Test func closeAtResponseStartSendsPartOfTheHeadThenFIN() async throws {
        try await withTestServer { server in
            let exchange = try await RawSocket.get(port: server.port, "/fault/close/atResponseStart?after_bytes=20")
            #expect(exchange.ending == "eof")
            #expect(exchange.received == Data("HTTP/1.1 200 OK\r\nCon".utf8))
        }
    }

    @Test func resetMidResponseBodyDeliversTheBodyPrefixThenRST() async throws {
        try await withTestServer { server in
            let exchange = try await RawSocket.get(
                port: server.port, "/fault/reset/midResponseBody?body_size=100&after_bytes=10")
            #expect(exchange.ending == "reset")
            let text = String(decoding: exchange.received, as: UTF8.self)
            #expect(text.hasPrefix("HTTP/1.1 200 OK\r\n"))
            #expect(exchange.received.suffix(10) == CountingBytesStream.bytes(count: 10))
        }
    }

    @Test func stalledConnectionStaysOpenUntilServerShutdown() async throws {
        let server = try await TestServer.start()
        let url = "\(server.baseURL.absoluteString)/fault/stall/afterRequest"
        async let result = Shell.run("curl -s --max-time 30 -o /dev/null -w '%{time_total}' '\(url)'")
        // Shut down only once the request was read: unread bytes would turn the close into a reset.
        for _ in 0..<1000 where server.receivedRequests.isEmpty {
            try await Task.sleep(for: .milliseconds(20))
        }
        try await Task.sleep(for: .milliseconds(100))
        try await server.shutdown()
        let finished = try await result
        #expect(finished.status == 52, "shutdown closes the stalled connection: curl sees an empty reply")
        #expect(
            (Double(String(decoding: finished.standardOutput, as: UTF8.self)) ?? 99) < 25,
            "closed by the shutdown, not curl's --max-time")
    }

    @Test func faultRouteRefusesAtConnectAndUnknownNames() async throws {
        try await withTestServer { server in
            let base = server.baseURL.absoluteString
            let result = try await Shell.run(
                """
                for path in fault/close/atConnect fault/explode/afterRequest fault/close/later raw/nothing; do \
                  curl -s --max-time 30 -o /dev/null -w '%{http_code} ' "\(base)/$path"; done
                """)
            #expect(String(decoding: result.standardOutput, as: UTF8.self) == "400 400 400 400 ")
        }
    }

    static let cannedExits: [(CannedRawResponse, Int32)] = [
        (.malformedStatusLine, 1),
        (.malformedChunkSize, 56),
        (.oversizedHeaders, 56),  // curl's limit on a response head is 300 KiB
        (.contentLengthTooLong, 18),
        (.conflictingContentLength, 0),  // curl 7.88 takes the last Content-Length
        (.chunkedAndContentLength, 0),  // chunked wins, as RFC 9112 says
        (.closesMidHeaders, 0),  // curl 7.88 accepts the truncated head
    ]

    @Test(arguments: cannedExits)
    func rawRouteWritesTheCannedBytesVerbatimThenCloses(canned: CannedRawResponse, curlExit: Int32) async throws {
        try await withTestServer { server in
            let exchange = try await RawSocket.get(port: server.port, "/raw/\(canned.rawValue)")
            #expect(exchange.ending == "eof")
            #expect(exchange.received == canned.bytes())
            let result = try await Shell.run(
                "curl -s --max-time 30 -o /dev/null '\(server.baseURL.absoluteString)/raw/\(canned.rawValue)'")
            #expect(result.status == curlExit)
        }
    }

    @Test func oversizedHeadersTakeTheirSizeFromTheQuery() async throws {
        try await withTestServer { server in
            let exchange = try await RawSocket.get(port: server.port, "/raw/oversized-headers?size=5000")
            #expect(exchange.received.count == 5000)
            #expect(exchange.received.suffix(23) == Data("\r\nContent-Length: 0\r\n\r\n".utf8))
            let curl = try await Shell.run(
                "curl -s --max-time 30 -o /dev/null -w '%{http_code}' "
                    + "'\(server.baseURL.absoluteString)/raw/oversized-headers?size=100000'")
            #expect(String(decoding: curl.standardOutput, as: UTF8.self) == "200")
        }
    }

    @Test func customRawRoutesWriteTheirBytesThenTheirEffect() async throws {
        let head = "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc"
        let routes = [
            Route.raw("/teapot", bytes: Data("HTTP/1.1 418 I'm a teapot\r\nContent-Length: 0\r\n\r\n".utf8)),
            Route.raw("/cut", bytes: Data(head.utf8), then: .reset),
        ]
        try await withTestServer(routes: routes) { server in
            let base = server.baseURL.absoluteString
            let teapot = try await Shell.run("curl -s --max-time 30 -o /dev/null -w '%{http_code}' '\(base)/teapot'")
            #expect(String(decoding: teapot.standardOutput, as: UTF8.self) == "418")
            let cut = try await RawSocket.get(port: server.port, "/cut")
            #expect(cut.ending == "reset")
            #expect(cut.received == Data(head.utf8))
        }
    }
}

/// A client that vanishes while a large body is being written must not take the server down: a
/// write to the reset socket fails at once, and the pump used to recurse on it until the stack
/// overflowed (found by the Python binding's tests).
@Suite("TestServer: clients that vanish mid-body")
struct VanishingClientTests {
    @Test func killedDownloadsOfAGigabyteLeaveTheServerServing() async throws {
        try await withTestServer { server in
            let url = "'\(server.baseURL.absoluteString)/bytes/1073741824'"
            for _ in 0..<6 {
                _ = try await Shell.run("timeout -s KILL 0.5 curl -s --limit-rate 100k -o /dev/null \(url)")
            }
            let after = try await Shell.run(
                "curl -s --max-time 20 -o /dev/null -w '%{http_code}' '\(server.baseURL.absoluteString)/status/204'")
            #expect(String(decoding: after.standardOutput, as: UTF8.self) == "204")
        }
    }
}
