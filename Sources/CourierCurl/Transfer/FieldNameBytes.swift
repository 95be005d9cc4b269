/// The check swift-http-types makes of a field name, made on raw bytes: the head parser checks
/// every name as it arrives but builds no `HTTPField.Name` until the fields are read.
enum FieldNameBytes {
    /// Bit `b` is set when byte `b` (below 64) is a token character: `! # $ % & ' * + - .` and digits.
    private static let tokenBitsBelow64: UInt64 = 0x03FF_6CFA_0000_0000
    /// Bit `b - 64` is set when byte `b` (64 to 127) is one: letters and `^ _ ` | ~`.
    private static let tokenBitsFrom64: UInt64 = 0x57FF_FFFF_C7FF_FFFE

    /// Whether `bytes` is an RFC 9110 token: one or more of `!#$%&'*+-.^_`|~`, digits and letters.
    static func isToken(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard !bytes.isEmpty else { return false }
        for byte in bytes {
            guard isTokenCharacter(byte) else { return false }
        }
        return true
    }

    /// Whether `byte` may appear in a token.
    static func isTokenCharacter(_ byte: UInt8) -> Bool {
        let bits = byte < 64 ? tokenBitsBelow64 : byte < 128 ? tokenBitsFrom64 : 0
        return bits & (1 << UInt64(byte & 63)) != 0
    }
}
