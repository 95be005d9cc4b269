import Courier
import Foundation
import HTTPTypes
import Testing

@testable import CourierCLI

@Suite("Output formatting")
struct OutputFormattingTests {
    @Test func jsonIsIndentedKeepingKeyOrderAndNumberSpelling() {
        let text = JSONText.format(
            Data(#"{"b":1.50,"a":[true,null,{}],"s":"x\"y","e":[]}"#.utf8), indent: 2, palette: nil)
        #expect(
            text == """
                {
                  "b": 1.50,
                  "a": [
                    true,
                    null,
                    {}
                  ],
                  "s": "x\\"y",
                  "e": []
                }
                """)
    }

    @Test func coloursWrapTokensAndKeepLayoutWithoutFormatting() throws {
        let palette = JSONText.Palette()
        let text = try #require(JSONText.format(Data(#"{"k": "v", "n": -2}"#.utf8), indent: nil, palette: palette))
        #expect(
            text == "{\(palette.key)\"k\"\(palette.reset): \(palette.string)\"v\"\(palette.reset), "
                + "\(palette.key)\"n\"\(palette.reset): \(palette.number)-2\(palette.reset)}")
    }

    @Test func invalidJSONIsNotFormatted() {
        #expect(JSONText.format(Data("{nope".utf8), indent: 4, palette: nil) == nil)
    }

    @Test func terminalGetsColourAndLayoutPipedOutputGetsTheBytes() throws {
        let body = Data(#"{"a":1}"#.utf8)
        let terminal = ExchangePrinter(pretty: .default(isTerminal: true), isTerminal: true)
        let shown = String(decoding: terminal.body(body, contentType: "application/json"), as: UTF8.self)
        #expect(shown.contains("\u{1B}["))
        #expect(shown.contains("\n    "))
        let piped = ExchangePrinter(pretty: .default(isTerminal: false), isTerminal: false)
        #expect(piped.body(body, contentType: "application/json") == body)
        let formatOnly = ExchangePrinter(pretty: .format, isTerminal: false)
        #expect(String(decoding: formatOnly.body(body, contentType: nil), as: UTF8.self) == "{\n    \"a\": 1\n}\n")
    }

    @Test func binaryBodiesAreNotShownOnATerminal() {
        let binary = Data([0x89, 0x50, 0x00, 0x01])
        let terminal = ExchangePrinter(pretty: .all, isTerminal: true)
        #expect(
            String(decoding: terminal.body(binary, contentType: "image/png"), as: UTF8.self).contains(
                "binary data not shown"))
        #expect(ExchangePrinter(pretty: .none, isTerminal: false).body(binary, contentType: "image/png") == binary)
    }

    @Test func headsAreLaidOutAsOnTheWire() throws {
        let request = try Request {
            Method.POST
            BaseURL("http://127.0.0.1:8080/anything?x=1")
            Header.custom("X-A").setValue("b")
            RequestBody.string("hi")
        }
        let printer = ExchangePrinter(pretty: .none, isTerminal: false)
        #expect(
            printer.requestHead(request) == """
                POST /anything?x=1 HTTP/1.1
                Host: 127.0.0.1:8080
                X-A: b
                Content-Type: text/plain; charset=utf-8
                Content-Length: 2


                """)
        var fields = HTTPFields()
        fields[.contentType] = "text/plain"
        let response = Response(status: .notFound, headerFields: fields, request: request)
        #expect(printer.responseHead(response) == "HTTP/1.1 404 Not Found\nContent-Type: text/plain\n\n")
        let coloured = ExchangePrinter(pretty: .colors, isTerminal: true).responseHead(response)
        #expect(coloured.contains("\u{1B}[31;1m404 Not Found"))
    }

    @Test func printSelectionParsesLettersAndDefaultsByTerminal() throws {
        #expect(try PrintSelection(letters: "Hb") == [.requestHead, .responseBody])
        #expect(try PrintSelection(letters: "HBhb") == .all)
        #expect(PrintSelection.default(isTerminal: true) == [.responseHead, .responseBody])
        #expect(PrintSelection.default(isTerminal: false) == [.responseBody])
        #expect(throws: PrintSelectionError.self) { try PrintSelection(letters: "hx") }
    }

    @Test func progressLineFitsTheTerminal() {
        let bar = ProgressBar(columns: 60)
        let half = bar.line(received: 512 * 1024, total: 1024 * 1024, elapsed: .seconds(1))
        #expect(half.hasPrefix("\r 50% ["))
        #expect(half.contains("512.0 KiB / 1.0 MiB"))
        #expect(half.count <= 60)
        #expect(bar.line(received: 1, total: 1024 * 1024, elapsed: .seconds(1)).count == half.count)
        #expect(bar.line(received: 2048, total: nil, elapsed: .seconds(2)) == "\r2.0 KiB  1.0 KiB/s")
    }

    @Test func downloadsAreNamedAfterTheResponseNeverAPath() throws {
        let url = try #require(URL(string: "http://h/files/report.pdf?x=1"))
        #expect(Downloader.suggestedFilename(contentDisposition: nil, url: url) == "report.pdf")
        #expect(
            Downloader.suggestedFilename(contentDisposition: #"attachment; filename="../../etc/passwd""#, url: url)
                == "passwd")
        #expect(
            Downloader.suggestedFilename(contentDisposition: "attachment; filename=data.csv; size=3", url: url)
                == "data.csv")
        #expect(
            Downloader.suggestedFilename(contentDisposition: nil, url: try #require(URL(string: "http://h/")))
                == "index")
    }

    /// HTTPie's rule and more: a server's name never makes a dotfile, climbs out of the folder by
    /// either separator, or carries a control character into a file name or a terminal.
    @Test func aServersFileNameIsReducedToASafeBaseName() throws {
        let url = try #require(URL(string: "http://h/files/report.pdf"))
        let cases: [(String, String)] = [
            (".bashrc", "bashrc"), ("...profile", "profile"), ("..", "report.pdf"),
            ("../.ssh/authorized_keys", "authorized_keys"),
            (#"..\..\win.ini"#, "win.ini"), ("a\u{1B}[2J\u{07}b.txt", "a[2Jb.txt"), ("  spaced.txt ", "spaced.txt"),
            ("\u{9B}31mred", "31mred"), ("/", "report.pdf"),
            (String(repeating: "n", count: 300), String(repeating: "n", count: 255)),
        ]
        for (suggested, expected) in cases {
            let name = Downloader.suggestedFilename(
                contentDisposition: "attachment; filename=\"\(suggested)\"", url: url)
            #expect(name == expected, "\(suggested.debugDescription)")
        }
        #expect(
            Downloader.suggestedFilename(contentDisposition: nil, url: try #require(URL(string: "http://h/.env")))
                == "env")
        #expect(
            Downloader.suggestedFilename(
                contentDisposition: #"attachment; filename="a; \"b\".txt"; filename*=UTF-8''%E2%82%AC%20rates.txt"#,
                url: url) == "€ rates.txt", "filename* (RFC 8187) comes first")
        #expect(
            Downloader.suggestedFilename(contentDisposition: #"attachment; filename="a; \"b\".txt""#, url: url)
                == #"a; "b".txt"#)
    }

    @Test func exitStatusFollowsHTTPie() {
        #expect(ExitStatus.checking(statusCode: 200) == .success)
        #expect(ExitStatus.checking(statusCode: 302) == .redirection)
        #expect(ExitStatus.checking(statusCode: 404) == .clientError)
        #expect(ExitStatus.checking(statusCode: 503) == .serverError)
        #expect(ExitStatus.failing(with: CourierError(.timedOut, "late")) == .timedOut)
        #expect(ExitStatus.failing(with: CourierError(.tooManyRedirects, "loop")) == .tooManyRedirects)
        #expect(ExitStatus.failing(with: CourierError(.cannotConnect, "refused")) == .error)
    }
}
