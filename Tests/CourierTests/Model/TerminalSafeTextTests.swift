import Testing

@testable import Courier

/// Messages quote what servers send; a terminal must never act on it.
@Suite struct TerminalSafeTextTests {
    @Test func terminalControlsAreEscapedAndLineBreaksKeptOnlyWhenAsked() {
        let hostile = "a\u{1B}]0;title\u{07}b\u{1B}[2J\u{9B}31m\rc\td\ne\u{7F}é"
        #expect(
            TerminalSafeText.escaping(hostile) == #"a\x1b]0;title\x07b\x1b[2J\u{9b}31m\x0dc"# + "\td\ne" + #"\x7f"#
                + "é")
        #expect(
            TerminalSafeText.escaping("tab\tand\nline", keepingLineBreaks: false) == #"tab\x09and\x0aline"#)
        #expect(TerminalSafeText.escaping("plain text, ünïcödé") == "plain text, ünïcödé")
    }

    @Test func anErrorsMessageNeverHoldsAControlAWriterPutInIt() {
        var error = CourierError(.invalidResponse, "bad \u{1B}[2J line")
        #expect(error.message == #"bad \x1b[2J line"#)
        error.message = "set \u{07} later"
        #expect(error.message == #"set \x07 later"#)
        #expect(!error.description.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 })
    }
}
