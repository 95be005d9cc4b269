/// RFC 9110 §5.6.2 tokens: the one check of names of methods, fields, cookies, auth schemes and
/// multipart boundaries, on a string or on raw bytes as the curl transport's head parser reads them.
package enum HTTPToken {
    /// Bit `b` is set when byte `b` (below 64) is a token character: `! # $ % & ' * + - .` and digits.
    private static let tokenBitsBelow64: UInt64 = 0x03FF_6CFA_0000_0000
    /// Bit `b - 64` is set when byte `b` (64 to 127) is one: letters, `^`, `_`, the backtick, `|` and `~`.
    private static let tokenBitsFrom64: UInt64 = 0x57FF_FFFF_C7FF_FFFE

    /// 1 when `byte` is not a token character, 0 when it is: no branch, so a loop can OR the answers.
    @inline(__always)
    private static func nonTokenBit(_ byte: UInt8) -> UInt64 {
        let bits = byte & 64 == 0 ? tokenBitsBelow64 : tokenBitsFrom64
        return (~bits >> UInt64(byte & 63)) & 1 | UInt64(byte >> 7)
    }

    /// Whether `byte` is a token character: a letter, a digit or one of ``!#$%&'*+-.^_`|~``.
    package static func isTokenByte(_ byte: UInt8) -> Bool { nonTokenBit(byte) == 0 }

    /// Whether `string` is a token: one or more token characters.
    package static func isToken(_ string: String) -> Bool {
        !string.isEmpty && string.utf8.allSatisfy(isTokenByte)
    }

    /// Whether `bytes` is a token. Field names are short and nearly always valid, and the head
    /// parser checks each one as it arrives: one table load per byte and no branch on its answer
    /// (the bit masks above, left to the vectorizer, cost about 15 instructions a byte).
    package static func isToken(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return false }
        return nonTokenTable.withUnsafeBufferPointer { table in
            var invalid: UInt8 = 0
            for offset in 0..<bytes.count {
                invalid |= table[Int(base.load(fromByteOffset: offset, as: UInt8.self))]
            }
            return invalid == 0
        }
    }

    /// 1 at each byte that is not a token character, 0 at each that is.
    private static let nonTokenTable: [UInt8] = (0...255).map { UInt8(truncatingIfNeeded: nonTokenBit(UInt8($0))) }
}
