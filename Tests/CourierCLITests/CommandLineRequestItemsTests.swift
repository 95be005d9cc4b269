import CourierTestServer
import Foundation
import Testing

extension CourierExecutableTests {
    /// HTTPie 3's request items on the built `courier`: nested JSON, repeated keys and the default
    /// headers, checked by what the loopback server received.
    @Suite("request items as HTTPie 3")
    struct CommandLineRequestItemsTests {
        @Test func nestedJSONPathsBuildTheBody() async throws {
            try await withTestServer { server in
                let nested = try await CourierProcess.run([
                    ":\(server.port)/anything", "user[name]=Ada", "user[tags][]=a",
                    "user[tags][]=b", "user[age]:=36", "kids[1]=Thelma", "kids[0]=Ashley",
                    #"foo\[bar\]:=1"#, #"baz[\[]:=2"#, #"object[\1]=one"#,
                ])
                #expect(nested.status == 0, "\(nested.err)")
                let echoed = try nested.echoed()
                #expect(echoed.method == "POST")
                #expect(echoed.values(of: "Content-Type") == ["application/json"])
                #expect(
                    echoed.text
                        == #"{"user": {"name": "Ada", "tags": ["a", "b"], "age": 36}, "kids": ["Ashley", "Thelma"], "#
                        + #""foo[bar]": 1, "baz": {"[": 2}, "object": {"1": "one"}}"#)

                let array = try await CourierProcess.run([":\(server.port)/anything", "[]:=1", "[]=two", "[3][x]=y"])
                #expect(array.status == 0, "\(array.err)")
                #expect(try array.echoed().text == #"[1, "two", null, {"x": "y"}]"#)
            }
        }

        @Test func conflictingPathsFailNamingThePathAndSendNothing() async throws {
            try await withTestServer { server in
                let type = try await CourierProcess.run([":\(server.port)/anything", "tags[]=a", "tags[name]=b"])
                #expect(type.status == 1)
                #expect(
                    type.errLines == [
                        #"courier: error: Type error in the JSON path "tags[name]" at "[name]" (column 5): "#
                            + "Cannot perform 'key' based access on 'tags' which has a type of 'array' but this operation requires a type of 'object'."
                    ])

                let syntax = try await CourierProcess.run([":\(server.port)/anything", "foo[baz][quux=FAIL"])
                #expect(syntax.status == 1)
                #expect(
                    syntax.errLines == [
                        #"courier: error: Syntax error in the JSON path "foo[baz][quux" at its end (column 14): Expecting ']'"#
                    ])

                let twice = try await CourierProcess.run([
                    ":\(server.port)/anything", "user[name]:=411", "user[name]=string",
                ])
                #expect(twice.status == 1)
                #expect(twice.err.contains("Cannot set 'user[name]' twice"), "\(twice.err)")
                #expect(server.receivedRequests.isEmpty)
            }
        }

        @Test func repeatedKeysAreAllSentOrRefused() async throws {
            try await withTestServer { server in
                let json = try await CourierProcess.run([":\(server.port)/anything", "a=1", "a=2"])
                #expect(json.status == 1 && json.err.contains("Cannot set 'a' twice"), "\(json.err)")

                let appended = try await CourierProcess.run([
                    ":\(server.port)/anything", "user[tags][]=a", "user[tags][]=b",
                ])
                #expect(try appended.echoed().text == #"{"user": {"tags": ["a", "b"]}}"#)

                let form = try await CourierProcess.run(["--form", ":\(server.port)/anything", "a=1", "a=2", "a[b]=3"])
                #expect(try form.echoed().text == "a=1&a=2&a%5Bb%5D=3")

                let file = FileManager.default.temporaryDirectory.appendingPathComponent("courier-repeat-\(UUID()).txt")
                try Data("file".utf8).write(to: file)
                defer { try? FileManager.default.removeItem(at: file) }
                let multipart = try await CourierProcess.run([
                    ":\(server.port)/anything", "a=1", "a=2", "f@\(file.path)", "f@\(file.path)",
                ])
                let parts = try multipart.echoed().text
                #expect(parts.components(separatedBy: "name=\"a\"").count == 3, "\(parts)")
                #expect(parts.components(separatedBy: "name=\"f\"").count == 3, "\(parts)")

                let query = try await CourierProcess.run([":\(server.port)/anything?q=0", "q==1", "q==2"])
                #expect(try query.echoed().query == "q=0&q=1&q=2")

                let headers = try await CourierProcess.run([":\(server.port)/anything", "X-A:1", "X-A:2"])
                #expect(try headers.echoed().values(of: "X-A") == ["1", "2"])
            }
        }

        /// `name==@file` and `Name:@file` send the file's text without its final line feeds, the
        /// value HTTPie 3.2.4 sends (`http --offline GET :/x q==@f`: `q=Hello+world+%26+more`, its
        /// `+` being requests' form encoding of the space that Courier writes `%20`).
        @Test func aQueryValueOrHeaderFromAFileIsTheFilesTextWithoutItsFinalLineFeeds() async throws {
            try await withTestServer { server in
                let file = FileManager.default.temporaryDirectory.appendingPathComponent("courier-q-\(UUID()).txt")
                try Data("Hello world & more\n".utf8).write(to: file)
                defer { try? FileManager.default.removeItem(at: file) }
                let sent = try await CourierProcess.run([
                    ":\(server.port)/anything", "q==@\(file.path)", "X-Bio:@\(file.path)",
                ])
                #expect(try sent.echoed().query == "q=Hello%20world%20%26%20more")
                #expect(try sent.echoed().values(of: "X-Bio") == ["Hello world & more"])
            }
        }

        @Test func defaultHeadersAreHTTPie32s() async throws {
            try await withTestServer { server in
                let form = try await CourierProcess.run(["--form", ":\(server.port)/anything", "name=Ada"])
                #expect(
                    try form.echoed().values(of: "Content-Type") == ["application/x-www-form-urlencoded; charset=utf-8"]
                )
                #expect(try form.echoed().values(of: "Accept") == ["*/*"])

                let emptyForm = try await CourierProcess.run(["--form", "POST", ":\(server.port)/anything"])
                #expect(
                    try emptyForm.echoed().values(of: "Content-Type") == [
                        "application/x-www-form-urlencoded; charset=utf-8"
                    ])

                let pipedForm = try await CourierProcess.run(
                    ["--form", ":\(server.port)/anything"], stdin: Data("a=1".utf8))
                #expect(
                    try pipedForm.echoed().values(of: "Content-Type") == [
                        "application/x-www-form-urlencoded; charset=utf-8"
                    ])

                let piped = try await CourierProcess.run([":\(server.port)/anything"], stdin: Data("plain text".utf8))
                let echoedPiped = try piped.echoed()
                #expect(echoedPiped.values(of: "Accept") == ["application/json, */*;q=0.5"])
                #expect(echoedPiped.text == "plain text")

                let json = try await CourierProcess.run(["--json", ":\(server.port)/anything"])
                let echoedJSON = try json.echoed()
                #expect(echoedJSON.method == "GET" && echoedJSON.bodyLength == 0)
                #expect(echoedJSON.values(of: "Accept") == ["application/json, */*;q=0.5"])
                #expect(echoedJSON.values(of: "Content-Type") == ["application/json"])

                let overridden = try await CourierProcess.run([
                    "--json", ":\(server.port)/anything", "Accept:application/xml", "Content-Type:application/xml",
                ])
                #expect(try overridden.echoed().values(of: "Accept") == ["application/xml"])
                #expect(try overridden.echoed().values(of: "Content-Type") == ["application/xml"])

                let plain = try await CourierProcess.run([":\(server.port)/anything"])
                #expect(try plain.echoed().values(of: "Accept") == ["*/*"])
                #expect(try plain.echoed().values(of: "Content-Type").isEmpty)
            }
        }
    }
}
