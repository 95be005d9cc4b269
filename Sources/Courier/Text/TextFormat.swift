/// The few number and string formats Courier writes, without `String(format:)` or `CharacterSet`:
/// those are in full Foundation only, which the core does without.
package enum TextFormat {
    /// `value` in hexadecimal, zero-padded to `width` digits (`%02x`, `%08x`, `%02X`).
    package static func hex(_ value: some BinaryInteger, width: Int, uppercase: Bool = false) -> String {
        let digits = String(value, radix: 16, uppercase: uppercase)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }

    /// `bytes` as lowercase hexadecimal, two digits each: a digest's usual spelling.
    package static func hex(bytes: some Sequence<UInt8>) -> String {
        var text = ""
        for byte in bytes { text += hex(byte, width: 2) }
        return text
    }

    /// `value` with one decimal, rounded half to even as `printf("%.1f")` does: `12.3`, `0.0`.
    package static func oneDecimal(_ value: Double) -> String {
        guard value.isFinite else { return "\(value)" }
        let tenths = (value * 10).rounded(.toNearestOrEven)
        let magnitude = abs(tenths)
        let whole = Int(magnitude / 10)
        let fraction = Int(magnitude.truncatingRemainder(dividingBy: 10))
        return (tenths < 0 ? "-" : "") + "\(whole).\(fraction)"
    }
}

extension StringProtocol {
    /// The text without the spaces and tabs around it (HTTP's optional whitespace, `OWS`).
    package func trimmingWhitespace() -> String {
        let isWhitespace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isWhitespace($0) }), let last = lastIndex(where: { !isWhitespace($0) })
        else { return "" }
        return String(self[first...last])
    }
}
