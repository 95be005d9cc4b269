import Foundation

/// A gzip member that inflates to `inflatedSize` zero bytes while being about 1/1000 of that size,
/// the best ratio deflate allows. zlib makes no such block, so it is written here bit by bit.
///
/// One dynamic-Huffman block whose code gives the length 258 and the distance 1 one-bit codes,
/// both `0`: after a single literal zero, every further 258 zeros cost two zero bits. So the
/// compressed body is a short head, a run of zero bytes, and a short tail; it is streamed from
/// those three parts and never held in memory, whatever `inflatedSize` is.
struct GzipBomb {
    /// The size the body inflates to.
    let inflatedSize: Int
    /// The member up to the run of zero bytes: gzip header, block header, code tables, first literal.
    let head: Data
    /// The number of zero bytes between `head` and `tail`.
    let zeroCount: Int
    /// The rest: leftover literals, end of block, and the gzip trailer.
    let tail: Data

    /// The whole member's size.
    var compressedSize: Int { head.count + zeroCount + tail.count }

    /// Builds the bomb for `inflatedSize` bytes (any size ≥ 0).
    init(inflatedSize: Int) {
        self.inflatedSize = inflatedSize
        let trailer = Self.trailer(crc: Gzip.crcOfZeros(count: inflatedSize), length: inflatedSize)
        guard inflatedSize > 0 else {
            head = Data(Self.header + [0x01, 0x00, 0x00, 0xFF, 0xFF] + trailer)  // one empty stored block
            zeroCount = 0
            tail = Data()
            return
        }
        let copies = (inflatedSize - 1) / 258
        let literals = (inflatedSize - 1) % 258
        var start = BitWriter()
        Self.writeBlockHeader(to: &start)
        start.write(code: 0b10, length: 2)  // the literal zero the copies repeat
        let tailOffset = start.bitCount + 2 * copies
        guard copies >= 64 else {
            // Small enough to write bit by bit.
            for _ in 0..<copies { start.write(code: 0, length: 2) }
            Self.writeEnd(literals: literals, to: &start)
            head = Data(Self.header + start.bytes + trailer)
            zeroCount = 0
            tail = Data()
            return
        }
        var end = BitWriter()
        end.write(0, bits: tailOffset % 8)
        Self.writeEnd(literals: literals, to: &end)
        head = Data(Self.header + start.bytes)
        zeroCount = tailOffset / 8 - start.bytes.count
        tail = Data(end.bytes + trailer)
    }

    /// The member header: magic, deflate, no flags, no time, unknown OS.
    private static let header: [UInt8] = [0x1F, 0x8B, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0xFF]

    /// The member trailer: CRC-32 of the uncompressed data and its length modulo 2³².
    private static func trailer(crc: UInt32, length: Int) -> [UInt8] {
        littleEndian(crc) + littleEndian(UInt32(truncatingIfNeeded: length))
    }

    private static func littleEndian<Integer: FixedWidthInteger>(_ value: Integer) -> [UInt8] {
        (0..<Integer.bitWidth / 8).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
    }

    /// BFINAL, BTYPE 2, and the code tables: literal 0 and end-of-block get 2-bit codes (`10`, `11`),
    /// length 258 (symbol 285) the 1-bit code `0`, and distance 1 (symbol 0) the 1-bit code `0`.
    private static func writeBlockHeader(to writer: inout BitWriter) {
        writer.write(1, bits: 1)
        writer.write(2, bits: 2)
        writer.write(286 - 257, bits: 5)  // HLIT: literal/length codes 0...285
        writer.write(1 - 1, bits: 5)  // HDIST: distance code 0 only
        writer.write(18 - 4, bits: 4)  // HCLEN: the order below, up to code-length symbol 1
        // Code-length code: symbol 18 (a run of zeros) is `0`, length 1 is `10`, length 2 is `11`.
        let order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1]
        let codeLengthLengths = [18: 1, 1: 2, 2: 2]
        for symbol in order { writer.write(codeLengthLengths[symbol] ?? 0, bits: 3) }
        func lengthTwo() { writer.write(code: 0b11, length: 2) }
        func lengthOne() { writer.write(code: 0b10, length: 2) }
        func zeros(_ count: Int) {
            writer.write(code: 0, length: 1)
            writer.write(count - 11, bits: 7)
        }
        lengthTwo()  // literal 0
        zeros(138)  // literals 1...138
        zeros(117)  // literals 139...255
        lengthTwo()  // end of block, 256
        zeros(28)  // lengths 257...284
        lengthOne()  // length 258, 285
        lengthOne()  // distance 1, distance symbol 0
    }

    private static func writeEnd(literals: Int, to writer: inout BitWriter) {
        for _ in 0..<literals { writer.write(code: 0b10, length: 2) }
        writer.write(code: 0b11, length: 2)
    }
}
