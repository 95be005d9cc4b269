import CourierTestServer
import Foundation
import Testing

extension CourierExecutableTests {
    /// HTTPie 3's request items on the built `courier`: nested JSON, repeated keys and the default
    /// headers, checked by what the loopback server received.
    @Suite("request items as HTTPie 3")
    struct CommandLineRequestItemsTests {
        func echo(_ run: CourierRun) throws -> EchoedRequest {
            try JSONDecoder().decode(EchoedRequest.self, from: run.stdout)
        }

        func header(_ name: String, in echoed: EchoedRequest) -> [String] {
            echoed.headers.filter { $0.first?.lowercased() == name.lowercased() }.map { $0[1] }
        }

        func body(_ echoed: EchoedRequest) -> String {
            String(decoding: echoed.body ?? Data(), as: UTF8.self)
        }

        @Test func nestedJSONPathsBuildTheBody() async throws {
            try await withTestServer { server in
                let nested = try await CourierProcess.run([":\(server.port)/anything", "user[name]=Ada", "user[tags][]=a",
                                                           "user[tags][]=b", "user[age]:=36", "kids[1]=Thelma", "kids[0]=Ashley",
                                                           #"foo\[bar\]:=1"#, #"baz[\[]:=2"#, #"object[\1]=one"#])
                #expect(nested.status == 0, "\(nested.err)")
                let echoed = try echo(nested)
                #expect(echoed.method == "POST")
                #expect(header("Content-Type", in: echoed) == ["application/json"])
                #expect(body(echoed) == #"{"user": {"name": "Ada", "tags": ["a", "b"], "age": 36}, "kids": ["Ashley", "Thelma"], "#
                    + #""foo[bar]": 1, "baz": {"[": 2}, "object": {"1": "one"}}"#)

                let array = try await CourierProcess.run([":\(server.port)/anything", "[]:=1", "[]=two", "[3][x]=y"])
                #expect(array.status == 0, "\(array.err)")
                #expect(body(try echo(array)) == #"[1, "two", null, {"x": "y"}]"#)
            }
        }

        @Test func conflictingPathsFailNamingThePathAndSendNothing() async throws {
            try await withTestServer { server in
                let type = try await CourierProcess.run([":\(server.port)/anything", "tags[]=a", "tags[name]=b"])
                #expect(type.status == 1)
                #expect(type.errLines == [#"courier: error: Type error in the JSON path "tags[name]" at "[name]" (column 5): "#
                    + "Cannot perform 'key' based access on 'tags' which has a type of 'array' but this operation requires a type of 'object'."])

                let syntax = try await CourierProcess.run([":\(server.port)/anything", "foo[baz][quux=FAIL"])
                #expect(syntax.status == 1)
                #expect(syntax.errLines == [#"courier: error: Syntax error in the JSON path "foo[baz][quux" at its end (column 14): Expecting ']'"#])

                let twice = try await CourierProcess.run([":\(server.port)/anything", "user[name]:=411", "user[name]=string"])
                #expect(twice.status == 1)
                #expect(twice.err.contains("Cannot set 'user[name]' twice"), "\(twice.err)")
                #expect(server.receivedRequests.isEmpty)
            }
        }

        @Test func repeatedKeysAreAllSentOrRefused() async throws {
            try await withTestServer { server in
                let json = try await CourierProcess.run([":\(server.port)/anything", "a=1", "a=2"])
                #expect(json.status == 1 && json.err.contains("Cannot set 'a' twice"), "\(json.err)")

                let appended = try await CourierProcess.run([":\(server.port)/anything", "user[tags][]=a", "user[tags][]=b"])
                #expect(body(try echo(appended)) == #"{"user": {"tags": ["a", "b"]}}"#)

                let form = try await CourierProcess.run(["--form", ":\(server.port)/anything", "a=1", "a=2", "a[b]=3"])
                #expect(body(try echo(form)) == "a=1&a=2&a%5Bb%5D=3")

                let file = FileManager.default.temporaryDirectory.appendingPathComponent("courier-repeat-\(UUID()).txt")
                try Data("file".utf8).write(to: file)
                defer { try? FileManager.default.removeItem(at: file) }
                let multipart = try await CourierProcess.run([":\(server.port)/anything", "a=1", "a=2", "f@\(file.path)", "f@\(file.path)"])
                let parts = body(try echo(multipart))
                #expect(parts.components(separatedBy: "name=\"a\"").count == 3, "\(parts)")
                #expect(parts.components(separatedBy: "name=\"f\"").count == 3, "\(parts)")

                let query = try await CourierProcess.run([":\(server.port)/anything?q=0", "q==1", "q==2"])
                #expect(try echo(query).query == "q=0&q=1&q=2")

                let headers = try await CourierProcess.run([":\(server.port)/anything", "X-A:1", "X-A:2"])
                #expect(header("X-A", in: try echo(headers)) == ["1", "2"])
            }
        }

        @Test func defaultHeadersAreHTTPie32s() async throws {
            try await withTestServer { server in
                let form = try await CourierProcess.run(["--form", ":\(server.port)/anything", "name=Ada"])
                #expect(header("Content-Type", in: try echo(form)) == ["application/x-www-form-urlencoded; charset=utf-8"])
                #expect(header("Accept", in: try echo(form)) == ["*/*"])

                let emptyForm = try await CourierProcess.run(["--form", "POST", ":\(server.port)/anything"])
                #expect(header("Content-Type", in: try echo(emptyForm)) == ["application/x-www-form-urlencoded; charset=utf-8"])

                let pipedForm = try await CourierProcess.run(["--form", ":\(server.port)/anything"], stdin: Data("a=1".utf8))
                #expect(header("Content-Type", in: try echo(pipedForm)) == ["application/x-www-form-urlencoded; charset=utf-8"])

                let piped = try await CourierProcess.run([":\(server.port)/anything"], stdin: Data("plain text".utf8))
                let echoedPiped = try echo(piped)
                #expect(header("Accept", in: echoedPiped) == ["application/json, */*;q=0.5"])
                #expect(body(echoedPiped) == "plain text")

                let json = try await CourierProcess.run(["--json", ":\(server.port)/anything"])
                let echoedJSON = try echo(json)
                #expect(echoedJSON.method == "GET" && echoedJSON.bodyLength == 0)
                #expect(header("Accept", in: echoedJSON) == ["application/json, */*;q=0.5"])
                #expect(header("Content-Type", in: echoedJSON) == ["application/json"])

                let overridden = try await CourierProcess.run(["--json", ":\(server.port)/anything", "Accept:application/xml", "Content-Type:application/xml"])
                #expect(header("Accept", in: try echo(overridden)) == ["application/xml"])
                #expect(header("Content-Type", in: try echo(overridden)) == ["application/xml"])

                let plain = try await CourierProcess.run([":\(server.port)/anything"])
                #expect(header("Accept", in: try echo(plain)) == ["*/*"])
                #expect(header("Content-Type", in: try echo(plain)).isEmpty)
            }
        }
    }
}
