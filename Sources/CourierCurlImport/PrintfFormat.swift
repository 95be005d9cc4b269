public import Courier

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The bytes a POSIX `printf FORMAT` (with no arguments) writes, for reading back the
/// `printf '…' | curl` pipelines ``Request/curlCommand`` writes for binary bodies.
enum PrintfFormat {
    /// `format`'s output: `%%` is `%`; `\\`, `\n`, `\r`, `\t`, `\a`, `\b`, `\f`, `\v`, `\"` and
    /// `\NNN` (one to three octal digits) are their bytes; any other conversion is refused, since
    /// with no arguments it would print something the command does not show.
    static func bytes(of format: [UInt8]) throws(CurlImportError) -> Data {
        var output = Data()
        var index = 0
        while index < format.count {
            let byte = format[index]
            index += 1
            switch byte {
            case UInt8(ascii: "%"):
                guard index < format.count, format[index] == UInt8(ascii: "%") else {
                    throw .unsupportedShellSyntax("a printf conversion other than %% in its format")
                }
                output.append(byte)
                index += 1
            case UInt8(ascii: "\\") where index < format.count:
                let escape = format[index]
                index += 1
                if let control = controlByte(escapedBy: escape) {
                    output.append(control)
                    continue
                }
                switch escape {
                case UInt8(ascii: "\\"), UInt8(ascii: "\""): output.append(escape)
                case UInt8(ascii: "0")...UInt8(ascii: "7"):
                    var value = Int(escape - UInt8(ascii: "0"))
                    var digits = 1
                    while digits < 3, index < format.count,
                        (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(format[index])
                    {
                        value = value * 8 + Int(format[index] - UInt8(ascii: "0"))
                        index += 1
                        digits += 1
                    }
                    output.append(UInt8(truncatingIfNeeded: value))
                default:
                    output += [byte, escape]
                }
            default:
                output.append(byte)
            }
        }
        return output
    }

    /// The control byte C's one-letter escapes stand for (`\n`, `\t`, `\r`, `\a`, `\b`, `\f`,
    /// `\v`), shared by `printf` formats and bash's `$'…'`.
    static func controlByte(escapedBy letter: UInt8) -> UInt8? {
        switch letter {
        case UInt8(ascii: "n"): 0x0A
        case UInt8(ascii: "t"): 0x09
        case UInt8(ascii: "r"): 0x0D
        case UInt8(ascii: "a"): 0x07
        case UInt8(ascii: "b"): 0x08
        case UInt8(ascii: "f"): 0x0C
        case UInt8(ascii: "v"): 0x0B
        default: nil
        }
    }
}
