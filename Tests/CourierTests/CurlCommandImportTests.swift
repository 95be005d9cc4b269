import CourierCurl
import CourierCurlImport
import CourierTestServer
import Foundation
import HTTPTypes
import Testing

@testable import Courier

/// `Request(curlCommand:)`: curl command lines, as `curlCommand` writes them and as people paste
/// them from API docs and browsers, read into the request curl would send.
@Suite("Request(curlCommand:)")
struct CurlCommandImportTests {
    /// What a request puts on the wire, for comparing two requests made different ways.
    struct WireImage: Equatable, CustomStringConvertible {
        let method: String
        let url: String
        let fields: [String]
        let body: Data

        /// The request as a transport sends it: a deferred body (a file, JSON) resolved first.
        init(_ request: Request) async throws {
            var request = request
            request.body = try request.body?.resolved(with: BodyEncodingContext(options: request.options))
            method = request.method.rawValue
            url = request.url.absoluteString
            fields = request.wireHeaderFields.map { "\($0.name.rawName): \($0.value)" }
            body = try await request.body?.collect() ?? Data()
        }

        var description: String { "\(method) \(url) \(fields) \(body.count) bytes" }
    }

    static let file: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("courier-curl-import-\(UUID()).bin")
        FileManager.default.createFile(
            atPath: url.path, contents: Data([0x00, 0x01, 0x0A, 0x27, 0xFF] + Array("file body".utf8)))
        return url
    }()

    /// Requests covering methods, URLs, header lines and body kinds that `curlCommand` writes.
    static func roundTripRequests() throws -> [Request] {
        func url(_ text: String) throws -> URL { try #require(URL(string: text)) }
        func name(_ text: String) throws -> HTTPField.Name { try #require(HTTPField.Name(text)) }
        let link = try #require(HTTPRequest.Method("LINK"))
        let purge = try #require(HTTPRequest.Method("PURGE"))
        let texts = [
            "a=1&b=2", #"{"name":"O'Brien","quote":"\"hi\""}"#, "line one\nline two", "@not-a-file", "$HOME `id` !x",
            "ünïcödé ✓ 日本", "--data-binary", "", "%s %d %%", #"back\slash"#,
        ]
        var requests: [Request] = []
        // Methods, with and without bodies.
        for method in [HTTPRequest.Method.get, .post, .put, .patch, .delete, .head, .options, link, purge] {
            requests.append(Request(method: method, url: try url("https://api.example.com/v1/items")))
            requests.append(
                Request(method: method, url: try url("https://api.example.com/v1/items"), body: .string("payload")))
        }
        // URLs.
        for text in [
            "http://127.0.0.1:8080/", "https://example.com/search?q=a%20b&lang=de", "http://[::1]:9000/v6",
            "https://example.com/a/./b/../c", "https://example.com/list?ids[]=1&ids[]=2",
            "https://example.com/%E2%9C%93?x=%27",
            "https://user:pw@example.com/private", "http://example.com", "https://example.com/path;matrix=1?empty=",
            "https://example.com/{braces}",
        ] {
            requests.append(Request(url: try url(text)))
        }
        // Header lines.
        requests.append(
            Request(
                url: try url("https://example.com/h"),
                headerFields: [
                    .accept: "application/json", .userAgent: "Courier/1.0",
                    try name("X-Quote"): #"it's "fine" $HOME `x`"#,
                    try name("X-Empty"): "", .cookie: "a=1", try name("X-Repeated"): "one",
                ]))
        var repeated = HTTPFields()
        repeated.append(HTTPField(name: try name("X-Repeated"), value: "one"))
        repeated.append(HTTPField(name: try name("X-Repeated"), value: "two"))
        repeated.append(HTTPField(name: .authorization, value: "Bearer abc.def"))
        requests.append(Request(url: try url("https://example.com/repeat"), headerFields: repeated))
        requests.append(
            Request(
                url: try url("https://example.com/ct"), headerFields: [.contentType: "text/csv"],
                body: .string("a,b\n1,2")))
        // Text bodies, with and without a Content-Type, as POST and PUT.
        for (index, text) in texts.enumerated() {
            let fields: HTTPFields = index.isMultiple(of: 2) ? [.contentType: "text/plain; charset=utf-8"] : [:]
            requests.append(
                Request(
                    method: .post, url: try url("https://example.com/text/\(index)"), headerFields: fields,
                    body: .data(Data(text.utf8))))
            requests.append(
                Request(method: .put, url: try url("https://example.com/text/\(index)"), body: .data(Data(text.utf8))))
        }
        // Bytes that cannot be an argument, a file, and a file mixed with bytes.
        requests.append(
            Request(
                method: .post, url: try url("https://example.com/binary"),
                body: .data([0x2D, 0x00, 0x25, 0x5C, 0x27, 0xFF, 0x0A, 0x0D, 0x09])))
        requests.append(Request(method: .post, url: try url("https://example.com/tabs"), body: .string("a\tb\r\n")))
        requests.append(Request(method: .post, url: try url("https://example.com/file"), body: .file(Self.file)))
        requests.append(
            Request(
                method: .put, url: try url("https://example.com/mixed"),
                body: RequestBody(
                    .segments([
                        .bytes(Data("head-".utf8)), .file(Self.file, length: 14),
                        .bytes(Data("-tail".utf8)),
                    ]),
                    contentType: nil, contentLength: 24)))
        requests.append(Request(method: .post, url: try url("https://example.com/empty"), body: .empty))
        requests.append(
            Request(
                method: .post, url: try url("https://example.com/form"),
                headerFields: [.contentType: "application/x-www-form-urlencoded"],
                body: .data(Data("name=Ada+Lovelace&lang=en".utf8))))
        return requests
    }

    @Test func everyRequestReadsBackFromItsOwnCurlCommand() async throws {
        let requests = try Self.roundTripRequests()
        #expect(requests.count >= 50)
        for request in requests {
            let command = request.curlCommand
            let imported: Request
            do {
                imported = try Request(curlCommand: command)
            } catch {
                Issue.record("\(command)\nwas refused: \(error)")
                continue
            }
            let original = try await WireImage(request)
            let read = try await WireImage(imported)
            #expect(read == original, "\(command)")
        }
    }

    @Test func theCommandsImportedRequestReachesTheServerAsCurlSendsIt() async throws {
        try await withTestServer { server in
            let command = """
                curl '\(server.baseURL.absoluteString)/echo/import?x=1' -X PATCH \\
                  -H 'Content-Type: application/json' -H "X-Trace: $'not expanded'" \\
                  --data-raw '{"a":1}' --compressed -s
                """
            let imported = try CurlCommandImport(command)
            #expect(imported.notes.count == 2)
            let transport = CurlTransport()
            let response = try await Client(transport: transport).send(imported.request)
            await transport.shutdown()
            let echoed = try JSONDecoder().decode(EchoedRequest.self, from: response.body)
            #expect(echoed.method == "PATCH")
            #expect(echoed.path == "/echo/import")
            #expect(echoed.query == "x=1")
            #expect(echoed.body == Data(#"{"a":1}"#.utf8))
            #expect(echoed.headers.contains(["X-Trace", "$'not expanded'"]))
            #expect(echoed.headers.contains(["Content-Type", "application/json"]))
            #expect(echoed.headers.contains(["Accept", "*/*"]))
        }
    }

    @Test func chromiumsCopyAsCurlBashIsRead() throws {
        let command = #"""
            curl 'https://api.example.com/graphql?op=Viewer' \
              -H 'accept: application/json' \
              -H 'accept-language: en-GB,en;q=0.9' \
              -H 'content-type: application/json' \
              -b 'session=abc123; theme=dark' \
              -H 'origin: https://app.example.com' \
              -H 'sec-ch-ua: "Chromium";v="131", "Not_A Brand";v="24"' \
              -H 'user-agent: Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36' \
              --data-raw $'{"query":"{ viewer { name } }","note":"it\'s\\n ok"}'
            """#
        let imported = try CurlCommandImport(command)
        let request = imported.request
        #expect(request.method == .post)
        #expect(request.url.absoluteString == "https://api.example.com/graphql?op=Viewer")
        #expect(
            request.headerFields.map(\.name.rawName) == [
                "accept", "accept-language", "content-type", "Cookie", "origin", "sec-ch-ua", "user-agent",
            ])
        #expect(request.headerFields[.cookie] == "session=abc123; theme=dark")
        #expect(
            request.headerFields[try #require(HTTPField.Name("sec-ch-ua"))]
                == #""Chromium";v="131", "Not_A Brand";v="24""#)
        #expect(imported.notes.isEmpty)
        guard case .segments(let segments)? = request.body?.storage else {
            Issue.record("no body")
            return
        }
        #expect(segments == [.bytes(Data(#"{"query":"{ viewer { name } }","note":"it's\n ok"}"#.utf8))])
    }

    @Test func firefoxsCopyAsCurlIsRead() throws {
        let command =
            #"curl 'https://shop.example.com/api/cart' -X PUT -H 'User-Agent: Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0' -H 'Accept: */*' -H 'Accept-Language: en-US,en;q=0.5' -H 'Accept-Encoding: gzip, deflate, br, zstd' -H 'Content-Type: application/json' -H 'Origin: https://shop.example.com' -H 'Connection: keep-alive' -H 'Cookie: cart=42' -H 'Sec-Fetch-Mode: cors' -H 'Priority: u=0' --data-raw '{"item":7,"qty":2}'"#
        let imported = try CurlCommandImport(command)
        #expect(imported.request.method == .put)
        #expect(imported.request.headerFields.count == 10)
        #expect(imported.request.headerFields[.acceptEncoding] == "gzip, deflate, br, zstd")
        #expect(imported.request.body?.contentLength == 18)
    }

    @Test func dataOptionsFollowCurl() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("courier-import-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let lines = directory.appendingPathComponent("lines.txt")
        try Data("a=1\r\nb=2\n".utf8).write(to: lines)
        func body(_ command: String) async throws -> String {
            let request = try Request(curlCommand: command)
            return String(decoding: try await request.body?.collect() ?? Data(), as: UTF8.self)
        }
        // -d strips CR and LF from a file; pieces join with &; --data-binary keeps bytes.
        #expect(try await body("curl http://x/ -d @\(lines.path) -d c=3") == "a=1b=2&c=3")
        #expect(try await body("curl http://x/ --data-binary @\(lines.path)") == "a=1\r\nb=2\n")
        #expect(try await body("curl http://x/ --data-raw @\(lines.path)") == "@\(lines.path)")
        // --data-urlencode's five forms.
        #expect(
            try await body("curl http://x/ --data-urlencode 'a b&c' --data-urlencode '=x y' --data-urlencode 'q=ü/?'")
                == "a%20b%26c&x%20y&q=%C3%BC%2F%3F")
        #expect(try await body("curl http://x/ --data-urlencode 'f@\(lines.path)'") == "f=a%3D1%0D%0Ab%3D2%0A")
        // --json sets both media types and concatenates.
        let json = try Request(curlCommand: #"curl http://x/ --json '{"a":' --json '1}'"#)
        #expect(json.headerFields[.contentType] == "application/json")
        #expect(json.headerFields[.accept] == "application/json")
        #expect(String(decoding: try await json.body?.collect() ?? Data(), as: UTF8.self) == #"{"a":1}"#)
        // -G moves the data to the query; combined short flags and attached values.
        let get = try Request(curlCommand: "curl -sSLG 'http://x/search?lang=en' -d q=swift -dpage=2")
        #expect(get.method == .get && get.body == nil)
        #expect(get.url.absoluteString == "http://x/search?lang=en&q=swift&page=2")
        let attached = try Request(curlCommand: "curl -XDELETE -H'X-A: 1' http://x/items/1")
        #expect(attached.method == .delete && attached.headerFields.map(\.value) == ["*/*", "1"])
        // -d's default Content-Type, unless given or switched off.
        #expect(
            try Request(curlCommand: "curl http://x/ -d a=1").headerFields[.contentType]
                == "application/x-www-form-urlencoded")
        #expect(try Request(curlCommand: "curl http://x/ -d a=1 -H 'Content-Type:'").headerFields[.contentType] == nil)
        // -u, --oauth2-bearer, -A, -e, -I, -T, -m.
        let auth = try Request(
            curlCommand: "curl -u ada:s3cret -A agent/1 -e https://ref.example/ -I --max-time 2.5 http://x/")
        #expect(auth.method == .head && auth.timeout == .milliseconds(2500))
        #expect(auth.headerFields[.authorization] == "Basic " + Data("ada:s3cret".utf8).base64EncodedString())
        #expect(auth.headerFields[.userAgent] == "agent/1" && auth.headerFields[.referer] == "https://ref.example/")
        #expect(
            try Request(curlCommand: "curl --oauth2-bearer t0k http://x/").headerFields[.authorization] == "Bearer t0k")
        let upload = try Request(curlCommand: "curl -T \(lines.path) http://x/files/")
        #expect(
            upload.method == .put && upload.url.absoluteString == "http://x/files/lines.txt"
                && upload.body?.contentLength == 9)
    }

    @Test func formPartsBecomeAMultipartBody() async throws {
        let request = try Request(
            curlCommand:
                "curl http://x/upload -F name=Ada -F 'file=@\(Self.file.path);type=application/x-thing;filename=t.bin' --form-string 'raw=@literal'"
        )
        let contentType = try #require(request.headerFields[.contentType])
        #expect(contentType.hasPrefix("multipart/form-data; boundary="))
        let body = String(decoding: try await request.body?.collect() ?? Data(), as: UTF8.self)
        #expect(body.contains("Content-Disposition: form-data; name=\"name\"\r\n\r\nAda\r\n"))
        #expect(
            body.contains(
                "Content-Disposition: form-data; name=\"file\"; filename=\"t.bin\"\r\nContent-Type: application/x-thing"
            ))
        #expect(body.contains("name=\"raw\"\r\n\r\n@literal\r\n"))
        #expect(request.method == .post)
    }

    @Test func optionsWithoutARequestEquivalentAreNotedNotDropped() throws {
        let imported = try CurlCommandImport("curl -k -L --compressed -v --http2 -o out.json https://x.example/")
        #expect(
            imported.notes.map { $0.prefix { $0 != ":" } } == [
                "-k", "-L", "--compressed", "-v", "--http2", "-o out.json",
            ])
    }

    @Test(arguments: [
        (
            "curl http://x/ --frobnicate",
            CurlImportError.unsupportedOption("--frobnicate", reason: "Courier does not import it")
        ),
        ("curl http://x/ -Z", .unsupportedOption("-Z", reason: "Courier does not know this curl option")),
        ("curl -X POST", .missingURL),
        ("curl http://a/ http://b/", .multipleURLs(["http://a/", "http://b/"])),
        ("curl http://x/ -H", .missingValue(option: "-H")),
        ("wget http://x/", .notACurlCommand("wget")),
        ("curl \"http://x/$PATH\"", .unsupportedShellSyntax("$ inside double quotes (http://x/$PATH\")")),
        ("curl http://x/$(id)", .unsupportedShellSyntax("a $ expansion outside single quotes ( http://x/$(id))")),
        ("curl http://x/ -d 'open", .unterminatedQuote("'")),
        (
            "curl http://x/ -u ada",
            .unsupportedOption("-u without a password", reason: "curl would ask for it; give user:password")
        ),
        ("curl 'http://x/{a,b}'", .urlGlobbing("http://x/{a,b}")),
        ("curl ftp://x/file", .invalidURL("ftp://x/file")),
        ("curl http://x/ -H 'no colon here'", .invalidHeader("no colon here")),
        ("curl http://x/ -d a=1 -F b=2", .unsupportedOption("-d with -F", reason: "curl refuses to send both")),
        ("curl http://x/ -d @/nonexistent/courier", .unreadableFile("/nonexistent/courier")),
        (
            "curl http://x/ > out.txt",
            .unsupportedShellSyntax("> (redirection, background or subshell: http://x/ > out.txt)")
        ),
    ])
    func whatCannotBeImportedIsATypedErrorNamingIt(command: String, expected: CurlImportError) {
        #expect(throws: expected) { try Request(curlCommand: command) }
    }

    @Test func aBareHostGetsHTTPAndTheFragmentIsNotSent() throws {
        #expect(try Request(curlCommand: "curl example.com/a#top").url.absoluteString == "http://example.com/a")
        #expect(
            try Request(curlCommand: "curl 'https://example.com/a/../b/./c'").url.absoluteString
                == "https://example.com/b/c")
        #expect(
            try Request(curlCommand: "curl --path-as-is 'https://example.com/a/../b'").url.absoluteString
                == "https://example.com/a/../b")
    }
}
