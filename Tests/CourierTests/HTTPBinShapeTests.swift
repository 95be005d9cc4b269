import Foundation
import Testing

@testable import CourierTestServer

/// The test server's httpbin routes answer in httpbin's shape, so scripts and tests written
/// against httpbin work unchanged; driven by the real curl binary, as httpbin's users drive it.
@Suite("httpbin's shape")
struct HTTPBinShapeTests {
    private func json(_ arguments: String) async throws -> [String: Any] {
        let result = try await Shell.run("curl -s --max-time 30 \(arguments)")
        return try #require(
            try JSONSerialization.jsonObject(with: result.standardOutput) as? [String: Any], "\(result)")
    }

    @Test func anythingAnswersWithHttpbinsKeysAndTheExactOnesBeside() async throws {
        try await withTestServer { server in
            let base = server.baseURL.absoluteString
            let answer = try await json(
                "-H 'X-API-Key: k' -H 'X-Many: a' -H 'X-Many: b' '\(base)/anything/x?q=1&tag=a&tag=b'")
            #expect(answer["args"] as? NSDictionary == ["q": "1", "tag": ["a", "b"]])
            #expect(answer["data"] as? String == "")
            #expect(answer["form"] as? NSDictionary == [:])
            #expect(answer["files"] as? NSDictionary == [:])
            #expect(answer["json"] is NSNull)
            #expect(answer["method"] as? String == "GET")
            #expect(answer["origin"] as? String == "127.0.0.1")
            #expect(answer["url"] as? String == "\(base)/anything/x?q=1&tag=a&tag=b")
            let headers = try #require(answer["headers"] as? [String: String])
            #expect(headers["X-Api-Key"] == "k")
            #expect(headers["X-Many"] == "a,b")
            #expect(headers["Host"] == "127.0.0.1:\(server.port)")
            let lines = try #require(answer["header_list"] as? [[String]])
            #expect(lines.filter { $0[0] == "X-Many" } == [["X-Many", "a"], ["X-Many", "b"]])
            #expect(answer["path"] as? String == "/anything/x")
            #expect(answer["query"] as? String == "q=1&tag=a&tag=b")
            #expect(answer["body_length"] as? Int == 0)
        }
    }

    @Test func aJSONBodyIsBothDataAndJson() async throws {
        try await withTestServer { server in
            let answer = try await json(
                #"-H 'Content-Type: application/json' -d '{"name": "Ada", "tags": [1, 2]}' '\#(server.baseURL.absoluteString)/post'"#
            )
            #expect(answer["data"] as? String == #"{"name": "Ada", "tags": [1, 2]}"#)
            #expect(answer["json"] as? NSDictionary == ["name": "Ada", "tags": [1, 2]])
            #expect(answer["form"] as? NSDictionary == [:])
        }
    }

    @Test func aURLEncodedFormIsForm() async throws {
        try await withTestServer { server in
            let answer = try await json(
                "--data-urlencode 'name=Ada Lovelace' -d a=1 -d a=2 '\(server.baseURL.absoluteString)/post'")
            #expect(answer["form"] as? NSDictionary == ["name": "Ada Lovelace", "a": ["1", "2"]])
            #expect(answer["data"] as? String == "")
            #expect(answer["json"] is NSNull)
        }
    }

    @Test func multipartFieldsAreFormAndFilePartsAreFiles() async throws {
        try await withTestServer { server in
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("httpbin-\(UUID()).txt")
            try Data("file text\n".utf8).write(to: file)
            defer { try? FileManager.default.removeItem(at: file) }
            let binary = FileManager.default.temporaryDirectory.appendingPathComponent("httpbin-\(UUID()).bin")
            try Data([0xFF, 0x00, 0x01]).write(to: binary)
            defer { try? FileManager.default.removeItem(at: binary) }
            let answer = try await json(
                "-F name=Ada -F 'doc=@\(file.path)' -F 'raw=@\(binary.path);type=image/png' -X PUT '\(server.baseURL.absoluteString)/put'"
            )
            #expect(answer["form"] as? NSDictionary == ["name": "Ada"])
            #expect(answer["files"] as? NSDictionary == ["doc": "file text\n", "raw": "data:image/png;base64,/wAB"])
            #expect(answer["data"] as? String == "")
        }
    }

    @Test func bytesThatAreNotUTF8AreADataURL() async throws {
        try await withTestServer { server in
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("httpbin-\(UUID()).bin")
            try Data([0xFF, 0xFE]).write(to: file)
            defer { try? FileManager.default.removeItem(at: file) }
            let answer = try await json(
                "-X PATCH -H 'Content-Type: application/octet-stream' --data-binary '@\(file.path)' '\(server.baseURL.absoluteString)/patch'"
            )
            #expect(answer["data"] as? String == "data:application/octet-stream;base64,//4=")
            #expect(answer["body_length"] as? Int == 2)
        }
    }

    @Test func getHasNoBodyPartsAndEachMethodRouteRefusesOtherMethods() async throws {
        try await withTestServer { server in
            let base = server.baseURL.absoluteString
            let get = try await json("'\(base)/get?x=1'")
            #expect(Set(get.keys).isSuperset(of: ["args", "headers", "origin", "url"]))
            #expect(get["data"] == nil && get["form"] == nil && get["json"] == nil)
            for (path, wrong) in [
                ("get", "POST"), ("post", "GET"), ("put", "POST"), ("patch", "PUT"), ("delete", "GET"),
            ] {
                let refused = try await Shell.run(
                    "curl -s --max-time 30 -o /dev/null -w '%{http_code}' -X \(wrong) '\(base)/\(path)'")
                #expect(String(decoding: refused.standardOutput, as: UTF8.self) == "405", "\(wrong) /\(path)")
            }
            let deleted = try await json("-X DELETE '\(base)/delete'")
            #expect(deleted["method"] as? String == "DELETE")
        }
    }

    @Test func ipAndUserAgentAnswerAsHttpbin() async throws {
        try await withTestServer { server in
            let base = server.baseURL.absoluteString
            let ip = try await json("'\(base)/ip'") as NSDictionary
            #expect(ip == ["origin": "127.0.0.1"])
            let agent = try await json("-A 'agent/1' '\(base)/user-agent'") as NSDictionary
            #expect(agent == ["user-agent": "agent/1"])
        }
    }

    @Test func multipartBodiesSplitAtTheirBoundaries() {
        let body = Data(
            "preamble\r\n--b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n1\r\n--b\r\nContent-Disposition: form-data; name=\"f\"; filename=\"x.txt\"\r\nContent-Type: text/plain\r\n\r\nline\r\n--b--\r\n"
                .utf8)
        let parts = MultipartFormParser.parts(of: body, boundary: "b")
        #expect(
            parts == [
                .init(name: "a", filename: nil, contentType: nil, body: Data("1".utf8)),
                .init(name: "f", filename: "x.txt", contentType: "text/plain", body: Data("line".utf8)),
            ])
        #expect(MultipartFormParser.boundary(fromContentType: #"multipart/form-data; boundary="q b""#) == "q b")
        #expect(MultipartFormParser.parts(of: Data("no delimiters".utf8), boundary: "b").isEmpty)
    }
}
