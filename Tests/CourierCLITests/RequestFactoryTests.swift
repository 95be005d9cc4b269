import Courier
import CourierRequestItems
import Foundation
import HTTPTypes
import Testing

@testable import CourierCLI

@Suite("Request factory")
struct RequestFactoryTests {
    func request(_ arguments: [String], _ configure: (inout RequestFactory) -> Void = { _ in }) throws -> Request {
        var factory = RequestFactory(line: try RequestLine.parse(arguments))
        configure(&factory)
        return try factory.makeRequest()
    }

    func bodyText(_ request: Request) async throws -> String {
        String(decoding: try await #require(request.body).collect(), as: UTF8.self)
    }

    @Test func withoutDataItIsAGetWithDefaultHeaders() throws {
        let sent = try request([":8080/get", "q==a b", "X-Token:abc"])
        #expect(sent.method == .get)
        #expect(sent.url.absoluteString == "http://127.0.0.1:8080/get?q=a%20b")
        #expect(sent.headerFields[.userAgent] == RequestFactory.userAgent)
        #expect(sent.headerFields[.accept] == "*/*")
        #expect(sent.headerFields[HTTPField.Name("X-Token")!] == "abc")
        #expect(sent.body == nil)
    }

    @Test func dataItemsMakeAJSONPostKeepingOrderAndRawValues() async throws {
        let sent = try request(["example.org/api", "name=Ada \"the\" first", "age:=36", "ratio:=1.50"])
        #expect(sent.method == .post)
        #expect(sent.headerFields[.contentType] == "application/json")
        #expect(sent.headerFields[.accept] == RequestFactory.jsonAccept)
        #expect(try await bodyText(sent) == #"{"name": "Ada \"the\" first", "age": 36, "ratio": 1.50}"#)
    }

    @Test func headerItemsReplaceDefaultsThenAddLinesAndCanRemoveThem() throws {
        let sent = try request(["example.org", "Accept:text/html", "Accept:text/plain", "User-Agent:", "X-Empty;"])
        #expect(sent.headerFields[values: .accept] == ["text/html", "text/plain"])
        #expect(sent.headerFields[.userAgent] == nil)
        #expect(sent.headerFields[HTTPField.Name("X-Empty")!] == "")
    }

    @Test func formStyleEncodesFieldsAndFilesMakeMultipart() async throws {
        let form = try request(["example.org", "a=1", "b=x y"]) { $0.style = .form }
        #expect(form.headerFields[.contentType] == "application/x-www-form-urlencoded; charset=utf-8")
        #expect(try await bodyText(form) == "a=1&b=x+y")

        let file = FileManager.default.temporaryDirectory.appendingPathComponent("courier-factory-\(UUID()).txt")
        try Data("file body".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let upload = try request(["example.org", "title=T", "doc@\(file.path)"])
        #expect(upload.headerFields[.contentType]?.hasPrefix("multipart/form-data; boundary=") == true)
        let text = try await bodyText(upload)
        #expect(text.contains("filename=\"\(file.lastPathComponent)\""))
        #expect(text.contains("file body"))
    }

    @Test func pipedInputIsTheBodyAndItsTypeIsGuessed() async throws {
        let json = try request(["example.org"]) { $0.standardInput = Data(#"{"a":1}"#.utf8) }
        #expect(json.method == .post)
        #expect(json.headerFields[.contentType] == "application/json")
        let text = try request(["PUT", "example.org"]) { $0.standardInput = Data("hello".utf8) }
        #expect(text.method == .put)
        #expect(text.headerFields[.contentType] == "text/plain; charset=utf-8")
        #expect(try await bodyText(text) == "hello")
    }

    /// HTTPie 3.2's `make_default_headers`: JSON `Accept` for `--json`, data or a piped body without
    /// `--form`; `Content-Type` for `--json` and `--form` even without a body.
    @Test func defaultHeadersFollowHTTPie32() throws {
        let json = try request(["example.org"]) { $0.forcesJSON = true }
        #expect(json.headerFields[.accept] == RequestFactory.jsonAccept)
        #expect(json.headerFields[.contentType] == "application/json")
        #expect(json.body == nil)
        let piped = try request(["example.org"]) { $0.standardInput = Data("text".utf8) }
        #expect(piped.headerFields[.accept] == RequestFactory.jsonAccept)
        let form = try request(["example.org"]) { $0.style = .form }
        #expect(form.headerFields[.contentType] == "application/x-www-form-urlencoded; charset=utf-8")
        #expect(form.headerFields[.accept] == "*/*")
        let pipedForm = try request(["example.org"]) {
            $0.style = .form
            $0.standardInput = Data("a=1".utf8)
        }
        #expect(pipedForm.headerFields[.contentType] == "application/x-www-form-urlencoded; charset=utf-8")
        #expect(pipedForm.headerFields[.accept] == "*/*")
        let overridden = try request(["example.org", "Content-Type:application/xml"]) { $0.forcesJSON = true }
        #expect(overridden.headerFields[values: .contentType] == ["application/xml"])
        let plain = try request(["example.org"])
        #expect(plain.headerFields[.contentType] == nil)
    }

    @Test func contradictionsAreErrors() throws {
        #expect(throws: RequestFactoryError.standardInputWithData) {
            try request(["example.org", "a=1"]) { $0.standardInput = Data("x".utf8) }
        }
        #expect(throws: RequestFactoryError.rawJSONInForm) {
            try request(["example.org", "a:=1"]) { $0.style = .form }
        }
        #expect(throws: RequestFactoryError.filesNeedForm) {
            try request(["example.org", "f@/etc/hostname"]) { $0.forcesJSON = true }
        }
    }

    @Test func builderChecksBecomeCourierErrors() throws {
        let badHeader = try #require(throws: CourierError.self) { try request(["example.org", "Bad Name:x"]) }
        #expect(badHeader.code == .invalidRequest)
        let missingFile = try #require(throws: CourierError.self) { try request(["example.org", "f@/no/such/file"]) }
        #expect(missingFile.code == .encodingFailed || missingFile.code == .invalidRequest)
        let badScheme = try #require(throws: CourierError.self) { try request(["ftp://example.org"]) }
        #expect(badScheme.code == .invalidRequest)
    }

    @Test func credentialsAndTimeoutGoThroughTheBuilder() throws {
        let basic = try request(["example.org"]) {
            $0.credentials = .basic(username: "ada", password: "secret")
            $0.timeout = .seconds(3)
        }
        #expect(basic.headerFields[.authorization] == "Basic YWRhOnNlY3JldA==")
        #expect(basic.timeout == .seconds(3))
        let bearer = try request(["example.org"]) { $0.credentials = .bearer("t0k") }
        #expect(bearer.headerFields[.authorization] == "Bearer t0k")
    }
}
