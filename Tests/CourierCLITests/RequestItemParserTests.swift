import Testing

@testable import CourierCLI
@testable import CourierRequestItems

@Suite("Request item parser")
struct RequestItemParserTests {
    @Test(arguments: [
        ("X-Token:abc", RequestItem.header(name: "X-Token", value: "abc")),
        ("Cookie:a=1; b=2", .header(name: "Cookie", value: "a=1; b=2")),
        ("User-Agent:", .removedHeader(name: "User-Agent")),
        ("X-Empty;", .emptyHeader(name: "X-Empty")),
        ("q==swift http", .query(name: "q", value: "swift http")),
        ("name=Ada", .dataField(name: "name", value: "Ada")),
        ("eq=a=b", .dataField(name: "eq", value: "a=b")),
        ("empty=", .dataField(name: "empty", value: "")),
        ("age:=36", .rawJSONField(name: "age", json: "36")),
        ("tags:=[\"a\", 1]", .rawJSONField(name: "tags", json: "[\"a\", 1]")),
        ("photo@/tmp/p.jpg", .file(field: "photo", path: "/tmp/p.jpg", type: nil)),
        ("photo@/tmp/p.bin;type=image/png", .file(field: "photo", path: "/tmp/p.bin", type: "image/png")),
    ])
    func separatorDecidesTheKind(argument: String, expected: RequestItem) throws {
        #expect(try RequestItemParser.parse(argument) == expected)
    }

    @Test func earliestSeparatorWinsAndTheLongestAtOnePosition() throws {
        #expect(try RequestItemParser.parse("a:=1") == .rawJSONField(name: "a", json: "1"))
        #expect(try RequestItemParser.parse("X-A:b==c") == .header(name: "X-A", value: "b==c"))
        #expect(try RequestItemParser.parse("a==b:c") == .query(name: "a", value: "b:c"))
        #expect(try RequestItemParser.parse("url=http://x") == .dataField(name: "url", value: "http://x"))
    }

    @Test func backslashEscapesSeparatorsInNameAndValue() throws {
        #expect(try RequestItemParser.parse(#"a\:b==c"#) == .query(name: "a:b", value: "c"))
        #expect(try RequestItemParser.parse(#"a\=b=c\=d"#) == .dataField(name: "a=b", value: "c=d"))
        #expect(try RequestItemParser.parse(#"path\@x=1"#) == .dataField(name: "path@x", value: "1"))
        let escapedBackslash = try RequestItemParser.parse(#"back\\slash=1"#)
        #expect(escapedBackslash == .dataField(name: FieldName(spelling: #"back\\slash"#), value: "1"))
        if case .dataField(let name, _) = escapedBackslash { #expect(name.text == #"back\slash"#) }
        #expect(try RequestItemParser.parse(#"win=C:\dir"#) == .dataField(name: "win", value: #"C:\dir"#))
    }

    /// HTTPie 3.2 strips the line feeds that end a file read into a query value or a header
    /// (`rstrip('\n')`), byte by byte: a CR before them stays, a body field keeps everything.
    @Test func aQueryValueOrHeaderFromAFileLosesItsTrailingLineFeedsAsInHTTPie() throws {
        let texts = ["two.txt": "  a\nb \n\n", "crlf.txt": "x\r\n", "none.txt": "plain"]
        let read: (String) throws -> String = { texts[$0] ?? "" }
        #expect(try RequestItemParser.parse("q==@two.txt", readFile: read) == .query(name: "q", value: "  a\nb "))
        #expect(try RequestItemParser.parse("q==@crlf.txt", readFile: read) == .query(name: "q", value: "x\r"))
        #expect(try RequestItemParser.parse("q==@none.txt", readFile: read) == .query(name: "q", value: "plain"))
        #expect(
            try RequestItemParser.parse("d=@two.txt", readFile: read) == .dataField(name: "d", value: "  a\nb \n\n"))
    }

    @Test func fileContentItemsReadTheFile() throws {
        let read: (String) throws -> String = { path in path == "bio.txt" ? "Hello\n" : "[1, 2]" }
        #expect(
            try RequestItemParser.parse("bio=@bio.txt", readFile: read) == .dataField(name: "bio", value: "Hello\n"))
        #expect(
            try RequestItemParser.parse("list:=@list.json", readFile: read)
                == .rawJSONField(name: "list", json: "[1, 2]"))
        #expect(try RequestItemParser.parse("q==@bio.txt", readFile: read) == .query(name: "q", value: "Hello"))
        #expect(try RequestItemParser.parse("X-Bio:@bio.txt", readFile: read) == .header(name: "X-Bio", value: "Hello"))
        #expect(try RequestItemParser.parse(#"q==\@bio.txt"#, readFile: read) == .query(name: "q", value: "@bio.txt"))
    }

    @Test(arguments: [
        "plainword", ":value", "==x", "n:=nope", "n:={", "n:=\t\u{0}1\u{0}n", "n:=1\u{0}", "X-A;b", "f@", "f@p;type=",
    ])
    func malformedItemsAreErrorsQuotingTheArgument(argument: String) {
        #expect(throws: RequestItemError.self) { try RequestItemParser.parse(argument) }
        let error = try? #require(throws: RequestItemError.self) { try RequestItemParser.parse(argument) }
        #expect(error?.description.contains("\"\(argument)\"") == true)
    }

    @Test func unreadableFileIsAnError() {
        #expect(throws: RequestItemError.self) {
            try RequestItemParser.parse("bio=@/no/such/file")
        }
        #expect(throws: RequestItemError.self) {
            try RequestItemParser.parse("q==@/no/such/file")
        }
    }
}

@Suite("Request line and URL shorthand")
struct RequestLineTests {
    @Test(arguments: [
        (":8080/path", "http://127.0.0.1:8080/path"),
        (":8080", "http://127.0.0.1:8080/"),
        (":/path", "http://127.0.0.1/path"),
        (":", "http://127.0.0.1/"),
        (":3000?x=1", "http://127.0.0.1:3000/?x=1"),
        ("example.org/x", "http://example.org/x"),
        ("localhost:3000", "http://localhost:3000"),
        ("https://example.org", "https://example.org"),
        ("HTTP://example.org", "HTTP://example.org"),
    ])
    func shorthandsExpand(argument: String, expected: String) {
        #expect(URLShorthand.expand(argument) == expected)
    }

    @Test func methodIsOptionalAndRecognisedAsHTTPieDoes() throws {
        #expect(try RequestLine.parse(["example.org"]) == RequestLine(method: nil, url: "example.org", items: []))
        #expect(try RequestLine.parse(["get", "example.org"]).method == "GET")
        #expect(try RequestLine.parse(["PURGE", "example.org"]).method == "PURGE")
        let hostFirst = try RequestLine.parse(["localhost", "a=1"])
        #expect(hostFirst.method == nil)
        #expect(hostFirst.url == "localhost")
        #expect(hostFirst.items == [.dataField(name: "a", value: "1")])
    }

    @Test func missingURLIsAnError() {
        #expect(throws: RequestLineError.missingURL) { try RequestLine.parse([]) }
    }
}
