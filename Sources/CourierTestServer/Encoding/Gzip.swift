import Foundation

/// gzip members (RFC 1952) written by hand, so the test server needs no zlib.
///
/// `stored(_:)` wraps data in uncompressed deflate blocks: valid gzip that any decoder accepts,
/// which is all `/gzip` needs. Real compression is only needed for the bomb, see `GzipBomb`.
enum Gzip {
    /// The member header: magic, deflate, no flags, no time, unknown OS.
    static let header: [UInt8] = [0x1F, 0x8B, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0xFF]

    /// The largest stored deflate block.
    private static let maximumStoredBlock = 0xFFFF

    /// `data` as a gzip member of stored deflate blocks.
    static func stored(_ data: Data) -> Data {
        var output = Data(header)
        var offset = data.startIndex
        repeat {
            let count = min(maximumStoredBlock, data.endIndex - offset)
            let isFinal = offset + count == data.endIndex
            output.append(isFinal ? 0x01 : 0x00)  // BFINAL, BTYPE 00, then padding to the byte
            output.append(contentsOf: littleEndian(UInt16(count)))
            output.append(contentsOf: littleEndian(~UInt16(count)))
            output.append(data[offset..<offset + count])
            offset += count
        } while offset < data.endIndex
        output.append(contentsOf: trailer(crc: CRC32.checksum(data), length: data.count))
        return output
    }

    /// The member trailer: CRC-32 of the uncompressed data and its length modulo 2³².
    static func trailer(crc: UInt32, length: Int) -> [UInt8] {
        littleEndian(crc) + littleEndian(UInt32(truncatingIfNeeded: length))
    }

    private static func littleEndian<Integer: FixedWidthInteger>(_ value: Integer) -> [UInt8] {
        (0..<Integer.bitWidth / 8).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
    }
}
