#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Quoting for POSIX `sh` (and bash, zsh, dash): words that survive the shell byte for byte.
enum ShellQuoting {
    /// `text` as one single-quoted word; an embedded `'` becomes `'\''`.
    ///
    /// Inside single quotes the shell expands nothing (`$`, backticks, `\`, `!`, newlines), so
    /// this is the only quoting that is the same in every POSIX shell.
    static func quoted(_ text: String) -> String {
        "'" + text.replacing("'", with: #"'\''"#) + "'"
    }

    /// `bytes` as a single-quoted `printf` format that writes exactly those bytes.
    ///
    /// `%` and `\` are doubled; tab, CR and LF are written `\t`, `\r`, `\n`; other control bytes,
    /// and every byte of data that is not valid UTF-8, become three-digit octal escapes
    /// (`\000`, `\377`), which POSIX `printf` understands in its format. A leading `-` is escaped
    /// too, or bash's `printf` would read it as an option.
    static func printfFormat(_ bytes: Data) -> String {
        var format = ""
        if let text = String(validating: bytes, as: UTF8.self) {
            for scalar in text.unicodeScalars {
                if scalar.value >= 0xA0 {
                    format.unicodeScalars.append(scalar)
                } else {
                    for byte in String(scalar).utf8 { appendEscaped(byte, to: &format, isFirst: format.isEmpty) }
                }
            }
        } else {
            for byte in bytes { appendEscaped(byte, to: &format, isFirst: format.isEmpty) }
        }
        return quoted(format)
    }

    private static func appendEscaped(_ byte: UInt8, to format: inout String, isFirst: Bool) {
        switch byte {
        case UInt8(ascii: "%"): format += "%%"
        case UInt8(ascii: "\\"): format += #"\\"#
        case UInt8(ascii: "\n"): format += #"\n"#
        case UInt8(ascii: "\r"): format += #"\r"#
        case UInt8(ascii: "\t"): format += #"\t"#
        case UInt8(ascii: "-") where isFirst: format += #"\055"#
        case 0x20...0x7E: format.unicodeScalars.append(Unicode.Scalar(byte))
        default:
            let octal = String(byte, radix: 8)
            format += "\\" + String(repeating: "0", count: 3 - octal.count) + octal
        }
    }
}
