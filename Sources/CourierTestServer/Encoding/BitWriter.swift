/// Packs bit fields the way deflate (RFC 1951) lays them out: from the least significant bit of
/// each byte up, with Huffman codes sent most significant bit first.
struct BitWriter {
    /// The bytes written so far; the last one may be partly filled, its free bits zero.
    private(set) var bytes: [UInt8] = []
    /// The number of bits written.
    private(set) var bitCount = 0

    /// Writes the low `count` bits of `value`, least significant first (header fields, extra bits).
    mutating func write(_ value: Int, bits count: Int) {
        for index in 0..<count { append(bit: (value >> index) & 1) }
    }

    /// Writes a Huffman `code` of `length` bits, most significant first.
    mutating func write(code: Int, length: Int) {
        for index in stride(from: length - 1, through: 0, by: -1) { append(bit: (code >> index) & 1) }
    }

    private mutating func append(bit: Int) {
        if bitCount % 8 == 0 { bytes.append(0) }
        bytes[bytes.count - 1] |= UInt8(bit) << (bitCount % 8)
        bitCount += 1
    }
}
