import Courier
import Foundation
import HTTPTypes
import Testing

@testable import CourierCLI

/// What a `Console` wrote, for tests that inject the terminal flags.
final class CapturedConsole: Sendable {
    private let streams = Protected<(out: Data, err: Data)>((Data(), Data()))

    var out: String { String(decoding: streams.withLock { $0.out }, as: UTF8.self) }
    var err: String { String(decoding: streams.withLock { $0.err }, as: UTF8.self) }

    func console(isTerminal: Bool) -> Console {
        Console(
            isOutTerminal: isTerminal, isErrTerminal: isTerminal,
            writeOut: { data in self.streams.withLock { $0.out.append(data) } },
            writeErr: { data in self.streams.withLock { $0.err.append(data) } })
    }
}

@Suite("Exchange runner")
struct ExchangeRunnerTests {
    let request = try! Request {
        Method.POST
        BaseURL("http://127.0.0.1:9/items")
        RequestBody.json(text: #"{"a":1}"#)
    }

    func runner(
        _ mock: MockTransport, _ captured: CapturedConsole, isTerminal: Bool, selection: PrintSelection
    ) -> ExchangeRunner {
        ExchangeRunner(
            client: Client(transport: mock), console: captured.console(isTerminal: isTerminal),
            printer: ExchangePrinter(pretty: .default(isTerminal: isTerminal), isTerminal: isTerminal),
            selection: selection)
    }

    @Test func terminalShowsTheResponseHeadAndAFormattedBodyEndingInANewline() async throws {
        let mock = MockTransport()
        mock.enqueue(.json(#"{"ok":true}"#))
        let captured = CapturedConsole()
        let status = try await runner(mock, captured, isTerminal: true, selection: .default(isTerminal: true)).run(
            request)
        #expect(status == .success)
        #expect(captured.out.contains("200 OK"))
        #expect(captured.out.contains("\n    \u{1B}[34;1m\"ok\"\u{1B}[0m: \u{1B}[35mtrue\u{1B}[0m\n}\n"))
    }

    @Test func pipedOutputIsTheBodyByteForByte() async throws {
        let mock = MockTransport()
        mock.enqueue(.text("no newline"))
        let captured = CapturedConsole()
        _ = try await runner(mock, captured, isTerminal: false, selection: .default(isTerminal: false)).run(request)
        #expect(captured.out == "no newline")
        let terminal = CapturedConsole()
        mock.enqueue(.text("no newline"))
        _ = try await runner(mock, terminal, isTerminal: true, selection: [.responseBody]).run(request)
        #expect(terminal.out == "no newline\n")
    }

    @Test func aBodyOverTheFormatLimitIsPrintedAsItArrives() async throws {
        let mock = MockTransport()
        let json = #"{"items": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]}"#
        mock.enqueue(.json(json))
        let captured = CapturedConsole()
        var limited = runner(mock, captured, isTerminal: true, selection: [.responseBody])
        limited.formatLimit = 8
        _ = try await limited.run(request)
        #expect(captured.out == json + "\n")
    }

    @Test func requestPartsShowTheRequestAsSent() async throws {
        let mock = MockTransport()
        mock.enqueue(.status(.noContent))
        let captured = CapturedConsole()
        _ = try await runner(mock, captured, isTerminal: false, selection: [.requestHead, .requestBody]).run(request)
        #expect(
            captured.out == """
                POST /items HTTP/1.1
                Host: 127.0.0.1:9
                Content-Type: application/json
                Content-Length: 7

                {"a":1}
                """)
    }

    @Test func checkedStatusWarnsOnStandardErrorWhenPiped() async throws {
        let mock = MockTransport()
        mock.enqueue(.text("gone", status: .notFound))
        let captured = CapturedConsole()
        var checking = runner(mock, captured, isTerminal: false, selection: [.responseBody])
        checking.checksStatus = true
        #expect(try await checking.run(request) == .clientError)
        #expect(captured.err == "courier: warning: HTTP 404 Not Found\n")
        #expect(captured.out == "gone")
    }
}
