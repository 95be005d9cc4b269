/// The check swift-http-types makes of a field name, made on raw bytes: the head parser checks
/// every name as it arrives but builds no `HTTPField.Name` until the fields are read.
enum FieldNameBytes {
    /// Bit `b` is set when byte `b` (below 64) is a token character: `! # $ % & ' * + - .` and digits.
    private static let tokenBitsBelow64: UInt64 = 0x03FF_6CFA_0000_0000
    /// Bit `b - 64` is set when byte `b` (64 to 127) is one: letters, `^`, `_`, the backtick, `|` and `~`.
    private static let tokenBitsFrom64: UInt64 = 0x57FF_FFFF_C7FF_FFFE

    /// Whether `bytes` is an RFC 9110 token: one or more letters, digits and ``!#$%&'*+-.^_`|~``.
    /// Every byte is looked at, without a branch per byte: names are short and nearly always valid.
    static func isToken(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard !bytes.isEmpty else { return false }
        var invalid: UInt64 = 0
        for byte in bytes {
            let bits = byte & 64 == 0 ? tokenBitsBelow64 : tokenBitsFrom64
            invalid |= (~bits >> UInt64(byte & 63)) & 1 | UInt64(byte >> 7)
        }
        return invalid == 0
    }
}
