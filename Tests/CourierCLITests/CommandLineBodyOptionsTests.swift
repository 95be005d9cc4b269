import CZlib
import CourierTestServer
import Foundation
import Testing

extension CourierExecutableTests {
    /// HTTPie 3.2's body options on the built `courier`: `--raw`, `--multipart`, `--boundary`,
    /// `--chunked` and `--compress`, checked by what the loopback server received.
    @Suite("body options as HTTPie 3.2")
    struct CommandLineBodyOptionsTests {
        /// `data` inflated from the zlib format, or `nil` when it is not valid zlib data.
        func inflated(_ data: Data, capacity: Int = 1 << 20) -> Data? {
            var length = uLongf(capacity)
            var output = Data(count: capacity)
            let status = output.withUnsafeMutableBytes { target in
                data.withUnsafeBytes { source in
                    uncompress(
                        target.baseAddress!.assumingMemoryBound(to: Bytef.self), &length,
                        source.baseAddress!.assumingMemoryBound(to: Bytef.self), uLong(data.count))
                }
            }
            guard status == Z_OK else { return nil }
            return output.prefix(Int(length))
        }

        @Test func rawSendsTheTextVerbatim() async throws {
            try await withTestServer { server in
                let text = try await CourierProcess.run(["--raw", "Hello, world!", ":\(server.port)/anything"])
                #expect(text.status == 0, "\(text.err)")
                let echoedText = try text.echoed()
                #expect(echoedText.method == "POST")
                #expect(echoedText.text == "Hello, world!")
                #expect(echoedText.values(of: "Content-Type") == ["text/plain; charset=utf-8"])

                let json = try await CourierProcess.run(["--raw", #"{"name": "John"}"#, ":\(server.port)/anything"])
                let echoedJSON = try json.echoed()
                #expect(echoedJSON.text == #"{"name": "John"}"#)
                #expect(echoedJSON.values(of: "Content-Type") == ["application/json"])
                #expect(echoedJSON.values(of: "Accept") == ["application/json, */*;q=0.5"])
            }
        }

        @Test func rawWithDataItemsOrPipedInputIsRefusedAndSendsNothing() async throws {
            try await withTestServer { server in
                let items = try await CourierProcess.run(["--raw", "x", ":\(server.port)/anything", "a=1"])
                #expect(items.status == 1)
                #expect(items.errLines.count == 1)
                #expect(
                    items.err.contains(
                        "--raw and request data (name=value) or a body piped to standard input cannot be mixed"),
                    "\(items.err)")

                let piped = try await CourierProcess.run(
                    ["--raw", "x", ":\(server.port)/anything"], stdin: Data("piped".utf8))
                #expect(piped.status == 1)
                #expect(piped.err.contains("cannot be mixed"), "\(piped.err)")

                let ignored = try await CourierProcess.run(
                    ["--ignore-stdin", "--raw", "x", ":\(server.port)/anything"], stdin: Data("piped".utf8))
                #expect(ignored.status == 0, "\(ignored.err)")
                #expect(try ignored.echoed().text == "x")
                #expect(server.receivedRequests.count == 1)
            }
        }

        @Test func multipartSendsFormDataWithoutAFile() async throws {
            try await withTestServer { server in
                let run = try await CourierProcess.run([
                    "--multipart", ":\(server.port)/anything", "name=Ada", "age=36",
                ])
                #expect(run.status == 0, "\(run.err)")
                let echoed = try run.echoed()
                let type = try #require(echoed.values(of: "Content-Type").first)
                #expect(type.hasPrefix("multipart/form-data; boundary="))
                #expect(echoed.text.contains("Content-Disposition: form-data; name=\"name\"\r\n\r\nAda\r\n"))
                #expect(echoed.text.contains("Content-Disposition: form-data; name=\"age\"\r\n\r\n36\r\n"))

                let empty = try await CourierProcess.run([
                    "--multipart", "--boundary", "xyz", ":\(server.port)/anything",
                ])
                #expect(try empty.echoed().text == "--xyz--\r\n")
            }
        }

        @Test func boundaryIsTheOneSent() async throws {
            try await withTestServer { server in
                let run = try await CourierProcess.run([
                    "--multipart", "--boundary", "xoxo", ":\(server.port)/anything", "a=1",
                ])
                #expect(run.status == 0, "\(run.err)")
                let echoed = try run.echoed()
                #expect(echoed.values(of: "Content-Type") == ["multipart/form-data; boundary=xoxo"])
                #expect(echoed.text == "--xoxo\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n1\r\n--xoxo--\r\n")

                let file = FileManager.default.temporaryDirectory.appendingPathComponent(
                    "courier-boundary-\(UUID()).txt")
                try Data("file text".utf8).write(to: file)
                defer { try? FileManager.default.removeItem(at: file) }
                let upload = try await CourierProcess.run([
                    "--form", "--boundary", "b0undary", ":\(server.port)/anything", "doc@\(file.path)",
                ])
                #expect(upload.status == 0, "\(upload.err)")
                #expect(try upload.echoed().values(of: "Content-Type") == ["multipart/form-data; boundary=b0undary"])
            }
        }

        @Test func anInvalidOrUnusedBoundaryIsRefusedAndSendsNothing() async throws {
            try await withTestServer { server in
                let long = try await CourierProcess.run([
                    "--multipart", "--boundary", String(repeating: "b", count: 71), ":\(server.port)/anything", "a=1",
                ])
                #expect(long.status == 1)
                #expect(
                    long.err.contains("a multipart boundary must be 1 to 70 characters long, not 71"), "\(long.err)")

                let character = try await CourierProcess.run([
                    "--multipart", "--boundary", "a\u{7}b", ":\(server.port)/anything", "a=1",
                ])
                #expect(character.status == 1)
                #expect(character.err.contains("has a character RFC 2046 does not allow"), "\(character.err)")

                let unused = try await CourierProcess.run(["--boundary", "xyz", ":\(server.port)/anything", "a=1"])
                #expect(unused.status == 1)
                #expect(unused.err.contains("--boundary needs a multipart body"), "\(unused.err)")
                #expect(server.receivedRequests.isEmpty)
            }
        }

        @Test(arguments: ["curl", "ahc"])
        func chunkedSendsTransferEncodingChunkedInsteadOfContentLength(transport: String) async throws {
            try await withTestServer { server in
                let run = try await CourierProcess.run([
                    "--chunked", "--transport", transport, ":\(server.port)/anything", "hello=world",
                ])
                #expect(run.status == 0, "\(run.err)")
                let echoed = try run.echoed()
                #expect(echoed.values(of: "Transfer-Encoding") == ["chunked"])
                #expect(echoed.values(of: "Content-Length").isEmpty)
                #expect(echoed.text == #"{"hello": "world"}"#)
            }
        }

        @Test func compressDeflatesTheBodyOnlyWhenThatMakesItSmaller() async throws {
            try await withTestServer { server in
                let long = "data=" + String(repeating: "compressible ", count: 100)
                let run = try await CourierProcess.run(["--compress", ":\(server.port)/anything", long])
                #expect(run.status == 0, "\(run.err)")
                let echoed = try run.echoed()
                #expect(echoed.values(of: "Content-Encoding") == ["deflate"])
                #expect(echoed.values(of: "Content-Length") == ["\(echoed.bodyLength)"])
                let expected = #"{"data": ""# + String(repeating: "compressible ", count: 100) + #""}"#
                #expect(echoed.bodyLength < expected.utf8.count)
                #expect(inflated(echoed.body ?? Data()).map { String(decoding: $0, as: UTF8.self) } == expected)

                let short = try await CourierProcess.run(["-x", ":\(server.port)/anything", "a=1"])
                let echoedShort = try short.echoed()
                #expect(echoedShort.values(of: "Content-Encoding").isEmpty)
                #expect(echoedShort.text == #"{"a": "1"}"#)

                let forced = try await CourierProcess.run(["-xx", ":\(server.port)/anything", "a=1"])
                let echoedForced = try forced.echoed()
                #expect(echoedForced.values(of: "Content-Encoding") == ["deflate"])
                #expect(
                    inflated(echoedForced.body ?? Data()).map { String(decoding: $0, as: UTF8.self) } == #"{"a": "1"}"#)
            }
        }

        @Test func compressAndChunkedTogetherSendTheDeflatedBodyChunked() async throws {
            try await withTestServer { server in
                let run = try await CourierProcess.run(["-xx", "--chunked", ":\(server.port)/anything", "a=1"])
                #expect(run.status == 0, "\(run.err)")
                let echoed = try run.echoed()
                #expect(echoed.values(of: "Transfer-Encoding") == ["chunked"])
                #expect(echoed.values(of: "Content-Encoding") == ["deflate"])
                #expect(inflated(echoed.body ?? Data()).map { String(decoding: $0, as: UTF8.self) } == #"{"a": "1"}"#)
            }
        }
    }
}
