/// Text made safe to print on a terminal or write to a log: every control character a terminal
/// acts on (C0 but tab and line feed, DEL, C1) is written as an escape instead.
///
/// Error messages quote what a server sent (an invalid status or header line), and they end up on
/// a terminal (`courier`'s standard error, a C program's `courier_error_message`, a Python
/// traceback) and in logs. Left raw, a server's `ESC ] 0 ; … BEL` would retitle the window and its
/// `ESC [ 2 J` clear the screen, and a carriage return would forge a log line.
package enum TerminalSafeText {
    /// `text` with its terminal controls escaped: `\x1b` for C0 and DEL, `\u{9b}` for C1; tab and
    /// line feed are kept when `keepingLineBreaks` (multi-line messages), escaped otherwise.
    package static func escaping(_ text: String, keepingLineBreaks: Bool = true) -> String {
        guard text.unicodeScalars.contains(where: { needsEscape($0, keepingLineBreaks: keepingLineBreaks) }) else {
            return text
        }
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            guard needsEscape(scalar, keepingLineBreaks: keepingLineBreaks) else {
                escaped.unicodeScalars.append(scalar)
                continue
            }
            let hex = String(scalar.value, radix: 16)
            escaped += scalar.value < 0x80 ? "\\x" + (hex.count < 2 ? "0" + hex : hex) : "\\u{\(hex)}"
        }
        return escaped
    }

    /// Whether a terminal acts on `scalar` rather than showing it: C0 (tab and line feed
    /// included), DEL and C1.
    package static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F..<0xA0).contains(scalar.value)
    }

    private static func needsEscape(_ scalar: Unicode.Scalar, keepingLineBreaks: Bool) -> Bool {
        guard isControl(scalar) else { return false }
        return !keepingLineBreaks || (scalar != "\t" && scalar != "\n")
    }
}
