import Foundation
import Testing

@testable import CourierTestServer

/// The httpbin-like routes, driven by the real curl binary; every curl has `--max-time`.
@Suite("TestServer routes")
struct TestServerRouteTests {
    private func curl(_ arguments: String) async throws -> (status: Int32, output: String) {
        let result = try await Shell.run("curl -s --max-time 30 \(arguments)")
        return (result.status, String(decoding: result.standardOutput, as: UTF8.self))
    }

    /// The check the download tests make of `/bytes`: every byte in its place, from any offset,
    /// across the pattern's chunk size, and a single wrong byte or a wrong offset is caught.
    @Test func countingBytesMatchOnlyInPlace() {
        let whole = CountingBytesStream.bytes(count: 200_000)
        #expect(CountingBytesStream.matches(whole, at: 0))
        #expect(CountingBytesStream.matches(whole[1000...], at: 1000))
        #expect(!CountingBytesStream.matches(whole[1000...], at: 999))
        var damaged = whole
        damaged[150_000] ^= 1
        #expect(!CountingBytesStream.matches(damaged, at: 0))
        #expect(CountingBytesStream.matches(Data(), at: 7))
    }

    @Test func redirectFollowsRelativeLocationsDownTheChainToEcho() async throws {
        try await withTestServer { server in
            let base = server.baseURL.absoluteString
            let first = try await curl("-D - -o /dev/null '\(base)/redirect/3'").output
            #expect(first.hasPrefix("HTTP/1.1 302 Found\r\n"))
            #expect(first.contains("Location: 2\r\n"))
            let followed = try await curl(
                "-L -o /dev/null -w '%{num_redirects} %{url_effective}' '\(base)/redirect/3?status=307'")
            #expect(followed.output == "3 \(base)/echo/get?status=307")
            #expect(
                server.receivedRequests.map(\.path) == [
                    "/redirect/3", "/redirect/3", "/redirect/2", "/redirect/1", "/echo/get",
                ])
        }
    }

    @Test func absoluteRedirectSendsAbsoluteLocationsBuiltFromTheHostHeader() async throws {
        try await withTestServer { server in
            let base = server.baseURL.absoluteString
            let head = try await curl("-D - -o /dev/null '\(base)/absolute-redirect/2'").output
            #expect(head.contains("Location: \(base)/absolute-redirect/1\r\n"))
            let followed = try await curl(
                "-L -o /dev/null -w '%{num_redirects} %{url_effective}' '\(base)/absolute-redirect/2'")
            #expect(followed.output == "2 \(base)/echo/get")
        }
    }

    @Test(arguments: [301, 302, 303, 307, 308])
    func redirectToAnswersWithTheRequestedStatusAndDecodedURL(status: Int) async throws {
        try await withTestServer { server in
            let result = try await curl(
                "-o /dev/null -w '%{http_code} %{redirect_url}' "
                    + "'\(server.baseURL.absoluteString)/redirect-to?url=http%3A%2F%2F127.0.0.1%3A1%2Fa%3Fb%3D1&status=\(status)'"
            )
            #expect(result.output == "\(status) http://127.0.0.1:1/a?b=1")
        }
    }

    @Test func redirectLoopNeverEndsSoCurlStopsAtItsLimit() async throws {
        try await withTestServer { server in
            let result = try await curl(
                "-L --max-redirs 5 -o /dev/null '\(server.baseURL.absoluteString)/redirect-loop'")
            #expect(result.status == 47, "curl exit code 47: too many redirects")
            #expect(
                server.receivedRequests.map(\.path).prefix(3) == [
                    "/redirect-loop", "/redirect-loop/b", "/redirect-loop",
                ])
        }
    }

    @Test func delayWaitsBeforeAnsweringWithoutHoldingUpOtherRequests() async throws {
        try await withTestServer { server in
            let base = server.baseURL.absoluteString
            // Four quick requests on their own connections beside the slow one: with two event
            // loops, at least one shares the slow one's loop, and must not wait for it. Each quick
            // one ends in under half the delay (10 s), a margin no loaded machine eats up.
            let result = try await curl(
                "-Z --parallel-immediate --parallel-max 5 -o /dev/null -o /dev/null -o /dev/null -o /dev/null -o /dev/null "
                    + "-w '%{url_effective} %{time_total}\\n' '\(base)/delay/20000' "
                    + "'\(base)/status/201' '\(base)/status/202' '\(base)/status/203' '\(base)/status/204'")
            let times = Dictionary(
                uniqueKeysWithValues: result.output.split(separator: "\n").map { line in
                    let fields = line.split(separator: " ")
                    return (String(fields[0].split(separator: "/").last!), Double(fields[1])!)
                })
            let slow = times["20000"] ?? 0
            #expect(slow >= 20 && slow < 60)
            #expect(["201", "202", "203", "204"].allSatisfy { (times[$0] ?? 99) < slow / 2 }, "\(times)")
        }
    }

    @Test func dripSendsTheHeadAtOnceAndSpreadsTheBytesOverTheDuration() async throws {
        try await withTestServer { server in
            let result = try await curl(
                "-D - -w '\\n%{time_starttransfer} %{time_total}' "
                    + "'\(server.baseURL.absoluteString)/drip?numbytes=4&duration_ms=8000'")
            let lines = result.output.components(separatedBy: "\r\n")
            #expect(lines.contains("transfer-encoding: chunked"))
            let tail = lines.last!.split(separator: "\n")
            #expect(tail.first == "****")
            let times = tail.last!.split(separator: " ").compactMap { Double($0) }
            // Relative, not absolute: the server pauses 2 s before each of the 4 bytes, so a head sent
            // at once arrives some 8 s before the last byte however slow the machine, and one held back
            // even until the first byte at most 6 s before it.
            #expect(times[1] - times[0] > 7, "the head is not held back by the drip: \(times)")
            #expect(times[1] >= 7.9 && times[1] < 30)
        }
    }

    @Test func bytesStreamsAQuarterGigabyteToTheEnd() async throws {
        try await withTestServer { server in
            let result = try await curl(
                "-o /dev/null -w '%{size_download}' '\(server.baseURL.absoluteString)/bytes/256000000'")
            #expect(result.output == "256000000")
            // The server's memory is bounded in a process of its own: CourierCLITests' TestServerMemoryTests.
        }
    }

    @Test func bytesCarryTheCountingPatternAcrossChunkBoundaries() async throws {
        try await withTestServer { server in
            let result = try await Shell.run(
                "curl -s --max-time 10 '\(server.baseURL.absoluteString)/bytes/200000?chunk_size=999'")
            #expect(result.standardOutput == CountingBytesStream.bytes(count: 200_000))
        }
    }

    @Test func streamBytesIsChunkedInTheRequestedSizes() async throws {
        try await withTestServer { server in
            let url = "\(server.baseURL.absoluteString)/stream-bytes/20?chunk_size=7"
            let raw = try await curl("--raw '\(url)'").output
            #expect(raw.hasPrefix("7\r\n"))
            #expect(raw.hasSuffix("\r\n6\r\n\u{0E}\u{0F}\u{10}\u{11}\u{12}\u{13}\r\n0\r\n\r\n"))
            let decoded = try await Shell.run("curl -s --max-time 10 '\(url)'")
            #expect(decoded.standardOutput == CountingBytesStream.bytes(count: 20))
            let head = try await curl("--head -w '%{num_connects}' '\(url)' '\(url)'").output
            #expect(
                head.hasSuffix("transfer-encoding: chunked\r\n\r\n0"),
                "no body after a HEAD, and the connection is reused")
        }
    }

    @Test func streamSendsOneJSONLinePerItem() async throws {
        try await withTestServer { server in
            let output = try await curl("'\(server.baseURL.absoluteString)/stream/3'").output
            #expect(output == (0..<3).map { "{\"id\":\($0),\"path\":\"/stream/3\"}\n" }.joined())
        }
    }

    @Test func uploadCountsAHundredMegabytesWithoutKeepingThem() async throws {
        try await withTestServer { server in
            let result = try await Shell.run(
                "head -c 100000000 /dev/zero "
                    + "| curl -s --max-time 20 -H 'Expect:' --data-binary @- '\(server.baseURL.absoluteString)/upload'")
            let receipt = try JSONDecoder().decode(UploadReceipt.self, from: result.standardOutput)
            #expect(receipt == UploadReceipt(received: 100_000_000, fnv1a64: nil))
            #expect(server.receivedRequests.last?.bodyDigest == BodyDigest(byteCount: 100_000_000))
            #expect(server.receivedRequests.last?.body.isEmpty == true)
            // The server's memory is bounded in a process of its own: CourierCLITests' TestServerMemoryTests.
        }
    }

    @Test func uploadChecksumIsFNV1a64OfTheBody() async throws {
        try await withTestServer { server in
            let base = server.baseURL.absoluteString
            let output = try await curl("--data-binary hello '\(base)/upload?checksum=fnv1a64'").output
            #expect(output == #"{"fnv1a64":"a430d84680aabd0b","received":5}"#)
            #expect(try await curl("-o /dev/null -w '%{http_code}' '\(base)/upload'").output == "405")
        }
    }

    @Test func serverSentEventsSendRetryThenNumberedEvents() async throws {
        try await withTestServer { server in
            let output = try await curl("-D - '\(server.baseURL.absoluteString)/sse?count=2&retry_ms=1500'").output
            #expect(output.contains("Content-Type: text/event-stream\r\n"))
            #expect(
                output.hasSuffix(
                    "\r\n\r\nretry: 1500\n\n"
                        + ": event 1\nid: 1\nevent: tick\ndata: event 1\ndata: of 2\n\n"
                        + ": event 2\nid: 2\nevent: tick\ndata: event 2\ndata: of 2\n\n"))
        }
    }

    @Test func serverSentEventsResumeAfterLastEventIDAndEndWith204() async throws {
        try await withTestServer { server in
            let url = "\(server.baseURL.absoluteString)/sse?count=3&newline=crlf"
            let resumed = try await curl("-H 'Last-Event-ID: 2' '\(url)'").output
            #expect(resumed == ": event 3\r\nid: 3\r\nevent: tick\r\ndata: event 3\r\ndata: of 3\r\n\r\n")
            #expect(try await curl("-H 'Last-Event-ID: 3' -o /dev/null -w '%{http_code}' '\(url)'").output == "204")
            #expect(try await curl("-o /dev/null -w '%{http_code}' '\(url)&status=204'").output == "204")
        }
    }

    @Test func serverSentEventsDropTheConnectionHalfwayThroughAnEvent() async throws {
        try await withTestServer { server in
            let result = try await curl("'\(server.baseURL.absoluteString)/sse?count=3&drop_after=1&interval_ms=50'")
            #expect(result.status == 18, "curl exit code 18: the chunked body ended early")
            #expect(result.output.hasSuffix("data: of 3\n\n: event 2\nid: 2\nevent: tick"))
        }
    }

    @Test func serverSentEventsCanArriveOneBytePerWrite() async throws {
        try await withTestServer { server in
            let raw = try await curl("--raw '\(server.baseURL.absoluteString)/sse?count=1&chunk=1'").output
            let chunks = raw.components(separatedBy: "\r\n").enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
            #expect(chunks.dropLast(2).allSatisfy { $0 == "1" }, "every chunk holds one byte")
            #expect(chunks.count - 2 == ": event 1\nid: 1\nevent: tick\ndata: event 1\ndata: of 1\n\n".utf8.count)
        }
    }

    @Test func serverSentEventsStreamDropsAfterTheRequestedEventsWithoutIO() {
        var stream = ServerSentEventsStream(
            firstID: 1, count: 3, interval: .zero, retry: nil, dropAfter: 1,
            bytewise: false, newline: "\n")
        let first = stream.event(1)
        let second = stream.event(2)
        #expect(stream.next() == .bytes(Data(first.utf8)))
        #expect(stream.next() == .bytes(Data(second.prefix(second.count / 2).utf8)))
        #expect(stream.next() == .fault(.close))
    }

    @Test func cookiesAreSetWithARedirectAndEchoed() async throws {
        try await withTestServer { server in
            let base = server.baseURL.absoluteString
            let jar = FileManager.default.temporaryDirectory.appending(path: "courier-jar-\(UUID().uuidString)").path
            defer { try? FileManager.default.removeItem(atPath: jar) }
            let set = try await curl("-L -c '\(jar)' -b '\(jar)' '\(base)/cookies/set?a=1&b=two'").output
            #expect(set == #"{"cookies":{"a":"1","b":"two"}}"#)
            let deleted = try await curl("-L -c '\(jar)' -b '\(jar)' '\(base)/cookies/delete?a'").output
            #expect(deleted == #"{"cookies":{"b":"two"}}"#)
            let sent = try await curl("-H 'Cookie: x=1; y=2' -H 'Cookie: x=3; z' '\(base)/cookies'").output
            #expect(sent == #"{"cookies":{"x":"1","y":"2","z":""}}"#)
        }
    }

    @Test func basicAuthAcceptsOnlyTheCredentialsInThePath() async throws {
        try await withTestServer { server in
            let url = "\(server.baseURL.absoluteString)/basic-auth/user/pa%3Ass"
            #expect(try await curl("-u 'user:pa:ss' '\(url)'").output == #"{"authenticated":true,"user":"user"}"#)
            let wrong = try await curl("-D - -o /dev/null -u 'user:nope' '\(url)'").output
            #expect(wrong.hasPrefix("HTTP/1.1 401"))
            #expect(wrong.contains("WWW-Authenticate: Basic realm=\"courier-test\"\r\n"))
            #expect(try await curl("-o /dev/null -w '%{http_code}' '\(url)'").output == "401")
        }
    }

    @Test func bearerAcceptsTheConfiguredTokenAndFlagsAWrongOne() async throws {
        try await withTestServer(routes: [.bearer(token: "abc")]) { server in
            let url = "\(server.baseURL.absoluteString)/bearer"
            #expect(
                try await curl("-H 'Authorization: Bearer abc' '\(url)'").output
                    == #"{"authenticated":true,"token":"abc"}"#)
            #expect(
                try await curl("-H 'Authorization: Bearer xyz' -o /dev/null -w '%{http_code}' '\(url)?token=xyz'")
                    .output == "200")
            let wrong = try await curl(
                "-D - -o /dev/null -H 'Authorization: Bearer \(Route.defaultBearerToken)' '\(url)'"
            ).output
            #expect(wrong.contains("WWW-Authenticate: Bearer realm=\"courier-test\", error=\"invalid_token\"\r\n"))
            let missing = try await curl("-D - -o /dev/null '\(url)'").output
            #expect(missing.contains("WWW-Authenticate: Bearer realm=\"courier-test\"\r\n"))
        }
        try await withTestServer { server in
            let result = try await curl(
                "-o /dev/null -w '%{http_code}' -H 'Authorization: Bearer \(Route.defaultBearerToken)' "
                    + "'\(server.baseURL.absoluteString)/bearer'")
            #expect(result.output == "200")
        }
    }

    @Test func gzipIsAValidGzipOfTheEcho() async throws {
        try await withTestServer { server in
            let url = "\(server.baseURL.absoluteString)/gzip"
            let decoded = try await Shell.run("curl -s --max-time 10 --compressed '\(url)'")
            let echo = try JSONDecoder().decode(EchoedRequest.self, from: decoded.standardOutput)
            #expect(echo.path == "/gzip")
            let raw = try await Shell.run("curl -s --max-time 10 -D /dev/stderr '\(url)'")
            #expect(raw.standardOutput.prefix(3) == Data([0x1F, 0x8B, 0x08]))
            #expect(raw.standardError.contains("Content-Encoding: gzip\r\n"))
        }
    }

    @Test func gzipBombInflatesToExactlyTheRequestedZeros() async throws {
        try await withTestServer { server in
            let base = server.baseURL.absoluteString
            let sizes = [0, 1, 258, 259, 1000, 16_513, 1 << 20]
            // Python's gzip checks the CRC-32 and length in the trailer.
            let check = try await Shell.run(
                sizes.map { size in
                    "curl -s --max-time 10 '\(base)/gzip-bomb?inflated=\(size)' | python3 -c "
                        + "'import gzip, sys; d = gzip.decompress(sys.stdin.buffer.read()); print(len(d), d.count(0))'"
                }.joined(separator: " && "))
            #expect(String(decoding: check.standardOutput, as: UTF8.self) == sizes.map { "\($0) \($0)\n" }.joined())
            let large = try await curl(
                "-o /dev/null -w '%{size_download} ' '\(base)/gzip-bomb?inflated=100000000' "
                    + "&& curl -s --max-time 20 --compressed '\(base)/gzip-bomb?inflated=100000000' | wc -c")
            let fields = large.output.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
            #expect(fields.count == 2 && fields[0] < 100_000_000 / 1000 + 100, "compressed: \(fields)")
            #expect(fields.last == 100_000_000)
        }
    }

    /// The bomb's checksum against the one zlib computes byte by byte for a gzip member's trailer.
    @Test func crcOfZerosMatchesTheBytewiseCRC() throws {
        for count in [0, 1, 2, 7, 8, 255, 256, 257, 1000, 4096, 65_537] {
            let trailer = try Gzip.compressed(Data(count: count)).suffix(8)
            let bytewise = trailer.prefix(4).reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            #expect(Gzip.crcOfZeros(count: count) == bytewise, "\(count) zeros")
        }
    }

    @Test func statusSendsRetryAfterVerbatim() async throws {
        try await withTestServer { server in
            let base = server.baseURL.absoluteString
            let seconds = try await curl("-D - '\(base)/status/503?retry_after=120'").output
            #expect(seconds.hasPrefix("HTTP/1.1 503"))
            #expect(seconds.contains("Retry-After: 120\r\n"))
            let date = try await curl("-D - '\(base)/status/429?retry_after=Wed,%2021%20Oct%202015%2007:28:00%20GMT'")
                .output
            #expect(date.contains("Retry-After: Wed, 21 Oct 2015 07:28:00 GMT\r\n"))
        }
    }

    @Test func headersAndAnythingEchoTheRequest() async throws {
        try await withTestServer { server in
            let base = server.baseURL.absoluteString
            let headers = try await curl("-H 'User-Agent:' -H 'Accept:' -H 'X-B: 2' '\(base)/headers'").output
            #expect(
                headers
                    == #"{"header_list":[["Host","127.0.0.1:\#(server.port)"],["X-B","2"]],"headers":{"Host":"127.0.0.1:\#(server.port)","X-B":"2"}}"#
            )
            let anything = try await Shell.run("curl -s --max-time 10 -X PATCH -d x '\(base)/anything/a/b?c'")
            let echo = try JSONDecoder().decode(EchoedRequest.self, from: anything.standardOutput)
            #expect(echo.method == "PATCH")
            #expect(echo.path == "/anything/a/b")
            #expect(echo.body == Data("x".utf8))
        }
    }
}
