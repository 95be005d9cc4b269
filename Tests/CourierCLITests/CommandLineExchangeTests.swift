import CourierTestServer
import Foundation
import Testing

extension CourierExecutableTests {
    /// The built `courier` executable against the loopback server: what reaches the server, what is printed, the exit status.
    @Suite("requests")
    struct CommandLineExchangeTests {
        func echo(_ run: CourierRun) throws -> EchoedRequest {
            try JSONDecoder().decode(EchoedRequest.self, from: run.stdout)
        }

        func header(_ name: String, in echoed: EchoedRequest) -> [String] {
            echoed.headers.filter { $0.first?.lowercased() == name.lowercased() }.map { $0[1] }
        }

        /// `--unix-socket` (curl's flag) connects to the socket; the URL's host names `Host`. On
        /// both transports.
        @Test(arguments: ["curl", "ahc"])
        func unixSocketSendsOverTheSocket(transport: String) async throws {
            let path = "/tmp/courier-cli-\(UUID().uuidString.prefix(8)).sock"
            try await withTestServer(unixSocketPath: path) { _ in
                let run = try await CourierProcess.run([
                    "--transport", transport, "--unix-socket", path, "http://localhost/echo/docker", "q==1",
                ])
                #expect(run.status == 0, "\(run.err)")
                let echoed = try echo(run)
                #expect(echoed.path == "/echo/docker" && echoed.query == "q=1")
                #expect(header("Host", in: echoed) == ["localhost"])
            }
        }

        @Test func headersQueryAndJSONFieldsReachTheServer() async throws {
            try await withTestServer { server in
                let run = try await CourierProcess.run([
                    ":\(server.port)/anything", "X-Token:abc", "q==swift http",
                    "name=Ada", "age:=36", "tags:=[\"a\"]", #"a\:b==c"#,
                ])
                #expect(run.status == 0)
                #expect(run.err.isEmpty)
                let echoed = try echo(run)
                #expect(echoed.method == "POST")
                #expect(echoed.path == "/anything")
                #expect(echoed.query == "q=swift%20http&a:b=c")
                #expect(header("X-Token", in: echoed) == ["abc"])
                #expect(header("Content-Type", in: echoed) == ["application/json"])
                #expect(header("User-Agent", in: echoed).first?.hasPrefix("courier/") == true)
                #expect(
                    String(decoding: try #require(echoed.body), as: UTF8.self)
                        == #"{"name": "Ada", "age": 36, "tags": ["a"]}"#)
            }
        }

        @Test func formAndMultipartFileItems() async throws {
            try await withTestServer { server in
                let form = try await CourierProcess.run(["--form", ":\(server.port)/anything", "a=1", "b=x y"])
                #expect(form.status == 0)
                let echoedForm = try echo(form)
                #expect(header("Content-Type", in: echoedForm) == ["application/x-www-form-urlencoded; charset=utf-8"])
                #expect(echoedForm.body == Data("a=1&b=x+y".utf8))

                let file = FileManager.default.temporaryDirectory.appendingPathComponent("courier-upload-\(UUID()).txt")
                try Data("uploaded bytes\n".utf8).write(to: file)
                defer { try? FileManager.default.removeItem(at: file) }
                let upload = try await CourierProcess.run([
                    "--form", "PUT", ":\(server.port)/anything", "title=T", "doc@\(file.path)",
                ])
                #expect(upload.status == 0)
                let echoedUpload = try echo(upload)
                #expect(echoedUpload.method == "PUT")
                #expect(
                    header("Content-Type", in: echoedUpload).first?.hasPrefix("multipart/form-data; boundary=") == true)
                let body = String(decoding: try #require(echoedUpload.body), as: UTF8.self)
                #expect(body.contains("name=\"doc\"; filename=\"\(file.lastPathComponent)\""))
                #expect(body.contains("uploaded bytes\n"))
                #expect(body.contains("name=\"title\"\r\n\r\nT\r\n"))
            }
        }

        @Test func urlShorthandsAndBareHostReachTheLoopbackServer() async throws {
            try await withTestServer { server in
                for url in [
                    ":\(server.port)/echo/x", "127.0.0.1:\(server.port)/echo/x",
                    "http://127.0.0.1:\(server.port)/echo/x",
                ] {
                    let run = try await CourierProcess.run([url])
                    #expect(run.status == 0, "\(url): \(run.err)")
                    #expect(try echo(run).path == "/echo/x")
                    #expect(try echo(run).method == "GET")
                }
            }
        }

        @Test func pipedStandardInputIsTheBodyUnlessIgnored() async throws {
            try await withTestServer { server in
                let piped = try await CourierProcess.run(
                    [":\(server.port)/anything"], stdin: Data(#"{"raw":true}"#.utf8))
                #expect(piped.status == 0)
                let echoed = try echo(piped)
                #expect(echoed.method == "POST")
                #expect(echoed.body == Data(#"{"raw":true}"#.utf8))
                #expect(header("Content-Type", in: echoed) == ["application/json"])

                let ignored = try await CourierProcess.run(
                    ["--ignore-stdin", ":\(server.port)/anything"], stdin: Data("x".utf8))
                #expect(try echo(ignored).method == "GET")
                #expect(try echo(ignored).bodyLength == 0)
            }
        }

        @Test func printSelectsThePartsOfTheExchange() async throws {
            try await withTestServer { server in
                let heads = try await CourierProcess.run(["-p", "Hh", ":\(server.port)/anything", "q==1"])
                #expect(heads.status == 0)
                #expect(heads.out.hasPrefix("GET /anything?q=1 HTTP/1.1\nHost: 127.0.0.1:\(server.port)\n"))
                #expect(heads.out.contains("\n\nHTTP/1.1 200 OK\n"))
                #expect(!heads.out.contains("\"method\""))

                let everything = try await CourierProcess.run(["--print", "HBhb", ":\(server.port)/anything", "a=1"])
                #expect(everything.out.contains("POST /anything HTTP/1.1\n"))
                #expect(everything.out.contains("\n\n{\"a\": \"1\"}\n\nHTTP/1.1 200 OK\n"))
                #expect(everything.out.hasSuffix("}"))

                let nothing = try await CourierProcess.run(["-p", "", ":\(server.port)/anything"])
                #expect(nothing.status == 0)
                #expect(nothing.out.isEmpty)

                let pretty = try await CourierProcess.run(["--pretty", "format", ":\(server.port)/anything"])
                #expect(
                    pretty.out.hasPrefix("{\n    \"args\": {},\n    \"body_base64\": \"\",\n    \"body_length\": 0,\n"),
                    "\(pretty.out)")
                #expect(!pretty.out.contains("\u{1B}["))
            }
        }

        @Test func curlPrintsTheCommandAndSendsNothing() async throws {
            try await withTestServer { server in
                let run = try await CourierProcess.run(["--curl", ":\(server.port)/anything", "q==1", "name=Ada"])
                #expect(run.status == 0)
                #expect(run.out.hasPrefix("curl 'http://127.0.0.1:\(server.port)/anything?q=1' \\\n"))
                #expect(run.out.contains("--data-binary '{\"name\": \"Ada\"}'"))
                #expect(server.receivedRequests.isEmpty)
            }
        }

        @Test func authFollowAndTheOtherTransport() async throws {
            try await withTestServer { server in
                let auth = try await CourierProcess.run([
                    "--check-status", "--auth", "ada:secret", ":\(server.port)/basic-auth/ada/secret",
                ])
                #expect(auth.status == 0, "\(auth.err)")
                let bearer = try await CourierProcess.run([
                    "--check-status", "--bearer", "t0k", ":\(server.port)/bearer", "token==t0k",
                ])
                #expect(bearer.status == 0, "\(bearer.err)")
                let followed = try await CourierProcess.run([
                    "--follow", "--check-status", "-p", "h", ":\(server.port)/redirect/2",
                ])
                #expect(followed.status == 0)
                #expect(followed.out.hasPrefix("HTTP/1.1 200 OK"))
                let tooMany = try await CourierProcess.run([
                    "--follow", "--max-redirects", "1", ":\(server.port)/redirect/3",
                ])
                #expect(tooMany.status == 6)
                #expect(tooMany.errLines.count == 1)
                let ahc = try await CourierProcess.run(["--transport", "ahc", ":\(server.port)/anything", "a=1"])
                #expect(ahc.status == 0, "\(ahc.err)")
                #expect(try echo(ahc).body == Data(#"{"a": "1"}"#.utf8))
                // Which transport sent it is observed in the explanation, not assumed from the flag.
                for (flag, transport) in [("ahc", "AsyncHTTPClientTransport"), ("curl", "CurlTransport")] {
                    let explained = try await CourierProcess.run([
                        "--transport", flag, "-p", "", "--explain-json", ":\(server.port)/anything",
                    ])
                    let object = try #require(
                        try JSONSerialization.jsonObject(with: explained.stdout) as? [String: Any])
                    let steps = try #require(object["steps"] as? [[String: Any]])
                    #expect(steps.last?["transport"] as? String == transport, "\(explained.out)")
                }
            }
        }
    }
}
