import CourierTestServer
import Foundation
import HTTPTypes
import Testing

@testable import Courier

@Suite("Request.curlCommand")
struct CurlCommandTests {
    @Test func simpleGetOnlySwitchesOffCurlsDefaultHeaders() throws {
        let request = Request(url: try #require(URL(string: "https://api.example.com/v1/users?page=2")))
        #expect(
            request.curlCommand == #"""
                curl 'https://api.example.com/v1/users?page=2' \
                  -H 'Accept:' \
                  -H 'User-Agent:'
                """#)
    }

    @Test func jsonPostEscapesSingleQuotesAndKeepsContentLengthInOrderWithoutExpectForASmallBody() throws {
        let request = Request(
            method: .post,
            url: try #require(URL(string: "https://api.example.com/v1/users")),
            headerFields: [.contentType: "application/json"],
            body: .json(text: #"{"name":"O'Brien","note":"say \"hi\""}"#))
        #expect(
            request.curlCommand == #"""
                curl 'https://api.example.com/v1/users' \
                  -H 'Content-Type: application/json' \
                  -H 'Content-Length: 38' \
                  -H 'Accept:' \
                  -H 'User-Agent:' \
                  --data-binary '{"name":"O'\''Brien","note":"say \"hi\""}'
                """#)
    }

    @Test func headerValuesAreQuotedAndEmptyValuesUseCurlsSemicolonForm() throws {
        let request = Request(
            url: try #require(URL(string: "https://api.example.com/search")),
            headerFields: [
                try #require(HTTPField.Name("X-Quote")): #"it's "fine" $HOME"#,
                try #require(HTTPField.Name("X-Empty")): "",
                .accept: "application/json",
            ])
        #expect(
            request.curlCommand == #"""
                curl 'https://api.example.com/search' \
                  -H 'X-Quote: it'\''s "fine" $HOME' \
                  -H 'X-Empty;' \
                  -H 'Accept: application/json' \
                  -H 'User-Agent:'
                """#)
    }

    @Test func binaryBodyIsPipedFromPrintfWithOctalEscapes() throws {
        let request = Request(
            method: try #require(HTTPRequest.Method("LINK")),
            url: try #require(URL(string: "http://[::1]:8080/items")),
            body: .data([0x2D, 0x00, 0x25, 0x5C, 0x27, 0xFF, 0x0A]))
        #expect(
            request.curlCommand == #"""
                printf '\055\000%%\\'\''\377\n' | curl 'http://[::1]:8080/items' \
                  --globoff \
                  --request LINK \
                  -H 'Content-Length: 7' \
                  -H 'Accept:' \
                  -H 'User-Agent:' \
                  -H 'Content-Type:' \
                  --data-binary @-
                """#)
    }

    @Test func bytesAndFileSegmentsArePipedInOrder() throws {
        let body = RequestBody(
            .segments([
                .bytes(Data("--b\r\n".utf8)),
                .file(URL(filePath: "/tmp/it's a file.txt"), length: 3),
                .bytes(Data("\r\n--b--\r\n".utf8)),
            ]), contentType: nil, contentLength: 17)
        let request = Request(
            method: .post,
            url: try #require(URL(string: "https://api.example.com/upload")),
            headerFields: [.contentType: "multipart/form-data; boundary=b"],
            body: body)
        #expect(
            request.curlCommand == #"""
                { printf '\055-b\r\n'; cat '/tmp/it'\''s a file.txt'; printf '\r\n--b--\r\n'; } | curl 'https://api.example.com/upload' \
                  -H 'Content-Type: multipart/form-data; boundary=b' \
                  -H 'Content-Length: 17' \
                  -H 'Accept:' \
                  -H 'User-Agent:' \
                  -H 'Expect:' \
                  --data-binary @-
                """#)
    }

    @Test func streamOfUnknownLengthIsReadFromStandardInputChunked() throws {
        let request = Request(
            method: .put,
            url: try #require(URL(string: "https://api.example.com/logs")),
            body: .stream(AsyncStream<Data> { $0.finish() }))
        #expect(
            request.curlCommand == #"""
                curl 'https://api.example.com/logs' \
                  --request PUT \
                  -H 'Transfer-Encoding: chunked' \
                  -H 'Accept:' \
                  -H 'User-Agent:' \
                  -H 'Content-Type:' \
                  -H 'Expect:' \
                  --data-binary @-
                """#)
    }

    @Test func emptyPostSendsZeroContentLengthWithoutDataOptions() throws {
        let request = Request(
            method: .post, url: try #require(URL(string: "https://api.example.com/ping")), body: .empty)
        #expect(
            request.curlCommand == #"""
                curl 'https://api.example.com/ping' \
                  --request POST \
                  -H 'Content-Length: 0' \
                  -H 'Accept:' \
                  -H 'User-Agent:'
                """#)
    }

    @Test func expectIsSwitchedOffOnlyForABodySomeCurlAsksToContinueBefore() throws {
        let url = try #require(URL(string: "https://api.example.com/upload"))
        func command(_ body: RequestBody) -> String { Request(method: .post, url: url, body: body).curlCommand }
        let limit = CurlCommandLine.largestBodyWithoutExpect
        #expect(limit == 1024)
        #expect(!command(.string(String(repeating: "a", count: limit))).contains("-H 'Expect:'"))
        #expect(command(.string(String(repeating: "a", count: limit + 1))).contains("\n  -H 'Expect:' \\\n"))
        #expect(!command(.data(Data(repeating: 0, count: limit))).contains("-H 'Expect:'"))
        #expect(command(.data(Data(repeating: 0, count: limit + 1))).contains("\n  -H 'Expect:' \\\n"))
        let smallFile = RequestBody(
            .segments([.file(URL(filePath: "/data/one byte"), length: 1)]), contentType: nil, contentLength: 1)
        #expect(
            command(smallFile).contains("\n  -H 'Expect:' \\\n"), "a file may have grown by the time the command runs")
    }

    @Test(arguments: [CurlCommandLine.largestBodyWithoutExpect, CurlCommandLine.largestBodyWithoutExpect + 1])
    func aBodyAroundTheOneKibibyteThresholdReachesTheServerWithoutExpect(bodyLength: Int) async throws {
        try await withTestServer { server in
            let request = try EndToEndCase.request(server.baseURL.absoluteString + "/echo/expect") {
                Method.POST
                RequestBody.string(String(repeating: "e", count: bodyLength), type: .plainText)
            }
            try await expectCurlReproduces(request, on: server, shell: "/bin/sh")
        }
    }

    @Test func curlAsksToContinueBeforeALargeBodyUnlessTheCommandSwitchesItOff() async throws {
        let files = FileManager.default.temporaryDirectory.appending(path: "courier-expect-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: files) }
        let file = files.appending(path: "large.bin")
        try Data(repeating: 0x61, count: 1024 * 1024 + 1).write(to: file)
        try await withTestServer { server in
            let request = try EndToEndCase.request(server.baseURL.absoluteString + "/echo/large") {
                Method.PUT
                RequestBody.file(file)
            }
            let suppression = " \\\n  -H 'Expect:'"
            #expect(request.curlCommand.contains(suppression))
            try await expectCurlReproduces(request, on: server, shell: "/bin/sh")
            let asking = request.curlCommand.replacingOccurrences(of: suppression, with: "")
            try await expectCurlReproduces(
                request, on: server, shell: "/bin/sh", command: asking,
                extraHeaders: [["Expect", "100-continue"]])
        }
    }

    @Test func headUsesHeadOptionAndDotSegmentsKeepThePathAsIs() throws {
        let request = Request(method: .head, url: try #require(URL(string: "https://api.example.com/a/../b/./c")))
        #expect(
            request.curlCommand == #"""
                curl 'https://api.example.com/a/../b/./c' \
                  --path-as-is \
                  --head \
                  -H 'Accept:' \
                  -H 'User-Agent:'
                """#)
    }

    @Test func textStartingWithAtSignIsNotReadAsAFileName() throws {
        let request = Request(
            method: .post, url: try #require(URL(string: "https://api.example.com/notes")),
            body: .string("@/etc/passwd"))
        #expect(request.curlCommand.hasSuffix("\n  --data-raw '@/etc/passwd'"))
    }

    @Test func textTooLongForOneArgumentIsPipedFromPrintf() throws {
        let text = String(repeating: "a", count: CurlCommandLine.maximumArgumentLength + 1)
        let request = Request(
            method: .post, url: try #require(URL(string: "https://api.example.com/long")),
            body: .string(text))
        #expect(request.curlCommand.hasPrefix("printf '\(text)' | curl 'https://api.example.com/long' \\\n"))
        #expect(request.curlCommand.hasSuffix("\n  --data-binary @-"))
    }

    @Test func singleFileIsReadByCurl() throws {
        let request = Request(
            method: .put, url: try #require(URL(string: "https://api.example.com/f")),
            body: RequestBody(
                .segments([.file(URL(filePath: "/data/a b.bin"), length: 9)]),
                contentType: nil, contentLength: 9))
        #expect(request.curlCommand.hasSuffix("\n  --data-binary @'/data/a b.bin'"))
        #expect(request.curlCommand.hasPrefix("curl 'https://api.example.com/f' \\\n  --request PUT \\\n"))
    }

    @Test(arguments: EndToEndCase.all, Shell.available)
    func curlSendsTheSameRequest(_ testCase: EndToEndCase, shell: String) async throws {
        let files = FileManager.default.temporaryDirectory.appending(path: "courier-curl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: files) }
        try await withTestServer { server in
            let request = try testCase.make(server.baseURL.absoluteString + "/echo", files)
            try await expectCurlReproduces(request, on: server, shell: shell)
        }
    }

    @Test(arguments: Shell.available)
    func curlReachesAnIPv6HostWithBrackets(shell: String) async throws {
        try await withTestServer(host: "::1") { server in
            let sent = try EndToEndCase.request(server.baseURL.absoluteString + "/echo/v6?x=1") {
                Method.PUT
                RequestBody.string("over IPv6")
            }
            #expect(sent.curlCommand.contains("--globoff"))
            try await expectCurlReproduces(sent, on: server, shell: shell)
        }
    }

    @Test(arguments: Shell.available)
    func streamBodyIsPipedInThroughStandardInput(shell: String) async throws {
        try await withTestServer { server in
            var draft = RequestDraft()
            draft.url = try #require(URLComponents(string: server.baseURL.absoluteString + "/echo/stream"))
            try Method.POST.apply(to: &draft)
            try RequestBody.stream(AsyncStream<Data> { $0.finish() }, type: .plainText).apply(to: &draft)
            let unknownLength = try draft.build()
            try await expectCurlReproduces(
                unknownLength, on: server, shell: shell,
                input: "streamed 'body'\n", extraHeaders: [["Transfer-Encoding", "chunked"]])

            try RequestBody.stream(length: 8) { AsyncStream<Data> { $0.finish() } }.apply(to: &draft)
            let knownLength = try draft.build()
            try await expectCurlReproduces(knownLength, on: server, shell: shell, input: "12345678")
        }
    }
}

/// A request to send both through `curlCommand` and compare with what the echo route saw.
struct EndToEndCase: Sendable, CustomTestStringConvertible {
    let name: String
    /// Builds the request from the echo route's URL and a scratch directory for files.
    let make: @Sendable (_ echoURL: String, _ files: URL) throws -> Request

    var testDescription: String { name }

    init(_ name: String, make: @escaping @Sendable (_ echoURL: String, _ files: URL) throws -> Request) {
        self.name = name
        self.make = make
    }

    /// A draft aimed at `url`, with `blocks` applied, built into a request.
    static func request(_ url: String, @RequestBuilder _ blocks: () throws -> RequestBlockGroup) throws -> Request {
        var draft = RequestDraft()
        draft.url = try #require(URLComponents(string: url))
        try blocks().apply(to: &draft)
        return try draft.build()
    }

    static let all: [EndToEndCase] = [
        EndToEndCase("GET with a query that needs encoding") { echo, _ in
            try request(echo + "/x%20y") {
                Query("filter[name]", "a b&c=d")
                Query("check", "✓ $x")
                Query(flag: "raw")
            }
        },
        EndToEndCase("POST text with quotes, newlines, $, backticks, ! and Unicode") { echo, _ in
            try request(echo + "/text") {
                Method.POST
                RequestBody.string("He said \"hi\" & it's $HOME `id` !! \\n\nline 2 ✓ 日本語 🎉\n'")
            }
        },
        EndToEndCase("POST text with CR and tab") { echo, _ in
            try request(echo + "/crlf") {
                Method.POST
                RequestBody.string("a\tb\r\nc\r\n")
            }
        },
        EndToEndCase("POST text starting with @") { echo, _ in
            try request(echo + "/at") {
                Method.POST
                RequestBody.string("@/etc/passwd")
            }
        },
        EndToEndCase("POST every byte value") { echo, _ in
            try request(echo + "/bytes") {
                Method.POST
                RequestBody.data(
                    Data((0...255).map { UInt8($0) } + (0...255).reversed().map { UInt8($0) }), type: .octetStream)
            }
        },
        EndToEndCase("custom LINK method with a body") { echo, _ in
            try request(echo + "/link") {
                Method.custom("LINK")
                RequestBody.string("link me")
            }
        },
        EndToEndCase("GET with a body") { echo, _ in
            try request(echo + "/get-body") { RequestBody.json(text: #"{"q":1}"#) }
        },
        EndToEndCase("POST with an empty body") { echo, _ in
            try request(echo + "/empty") {
                Method.POST
                RequestBody.empty
            }
        },
        EndToEndCase("HEAD") { echo, _ in
            try request(echo + "/head?x=1") { Method.HEAD }
        },
        EndToEndCase("DELETE with dot segments in the path") { echo, _ in
            try request(echo + "/a/../b/./c") { Method.DELETE }
        },
        EndToEndCase("PUT from a file") { echo, files in
            let file = files.appending(path: "up load's $x.bin")
            try Data((0...255).map { UInt8($0) } + Array("tail\n".utf8)).write(to: file)
            return try request(echo + "/file") {
                Method.PUT
                RequestBody.file(file)
            }
        },
        EndToEndCase("bytes, file, bytes") { echo, files in
            let file = files.appending(path: "part.txt")
            let contents = Data("file 'part' \0 %s\n".utf8)
            try contents.write(to: file)
            let segments: [BodySegment] = [
                .bytes(Data("--boundary\r\nContent-Disposition: form-data; name=\"f\"\r\n\r\n".utf8)),
                .file(file, length: Int64(contents.count)),
                .bytes(Data("\r\n--boundary--\r\n".utf8)),
            ]
            let length = segments.reduce(0) { $0 + $1.length }
            return try request(echo + "/multipart") {
                Method.POST
                RequestBody(
                    .segments(segments), contentType: "multipart/form-data; boundary=boundary", contentLength: length)
            }
        },
        EndToEndCase("headers with quotes, empty values and repeated lines") { echo, _ in
            var draft = RequestDraft()
            draft.url = try #require(URLComponents(string: echo + "/headers"))
            try draft.setHeader("X-Quote", #"it's "fine" $HOME `id` \ !"#, block: "test")
            try draft.setHeader("X-Empty", "", block: "test")
            try draft.appendHeaderLine("X-Dup", "1", block: "test")
            try draft.appendHeaderLine("x-dup", "2", block: "test")
            try draft.setHeader("X-Unicode", "José ✓", block: "test")
            try draft.setHeader("Accept", "application/json", block: "test")
            try draft.setHeader("User-Agent", "Courier-Test/1.0", block: "test")
            return try draft.build()
        },
    ]
}

/// Runs `request.curlCommand` (or `command`, a command printed for the same request) through
/// `shell` and expects the server to have received exactly the request: method, raw target, `Host`
/// plus the wire header lines in order, and the body.
///
/// `anyHeaderOrder` compares the header lines by name instead, lines of one name still in order:
/// for a command that leaves some lines to curl, which sends them where it puts its own.
func expectCurlReproduces(
    _ request: Request, on server: TestServer, shell: String,
    command printed: String? = nil, anyHeaderOrder: Bool = false,
    input: String? = nil, extraHeaders: [[String]] = [],
    sourceLocation: SourceLocation = #_sourceLocation
) async throws {
    let printed = printed ?? request.curlCommand
    let before = server.receivedRequests.count
    var command = printed + " --silent --show-error"
    if let input { command = "printf '%s' " + ShellQuoting.quoted(input) + " | " + command }
    let result = try await Shell.run(command, shell: shell)
    try #require(
        result.status == 0, "\(shell) -c exited with \(result.status): \(result.standardError)",
        sourceLocation: sourceLocation)

    var received: EchoedRequest
    if request.method == .head {
        #expect(result.standardOutput.isEmpty == false, sourceLocation: sourceLocation)
        received = EchoedRequest(try #require(server.receivedRequests.last, sourceLocation: sourceLocation))
    } else {
        received = try JSONDecoder().decode(EchoedRequest.self, from: result.standardOutput)
    }
    #expect(server.receivedRequests.count == before + 1, "curl sent one request", sourceLocation: sourceLocation)

    let components = try #require(URLComponents(url: request.url, resolvingAgainstBaseURL: false))
    let host = try #require(components.host, sourceLocation: sourceLocation)
    let body: Data = if let input { Data(input.utf8) } else { try await request.body?.collect() ?? Data() }
    var expected = EchoedRequest(
        TestServerRequest(
            method: request.method.rawValue,
            target: request.path + (components.percentEncodedQuery.map { "?" + $0 } ?? ""),
            headers: [("Host", "\(host):\(server.port)")]
                + request.wireHeaderFields.map { ($0.name.rawName, $0.value) }
                + extraHeaders.map { ($0[0], $0[1]) },
            body: body))
    if anyHeaderOrder {
        received.headers = byName(received.headers)
        expected.headers = byName(expected.headers)
    }
    #expect(received == expected, "\n\(printed)", sourceLocation: sourceLocation)
}

/// `[name, value]` lines sorted by lowercased name; lines of the same name keep their order.
private func byName(_ lines: [[String]]) -> [[String]] {
    lines.enumerated()
        .sorted {
            ($0.element.first?.lowercased() ?? "", $0.offset) < ($1.element.first?.lowercased() ?? "", $1.offset)
        }
        .map(\.element)
}
