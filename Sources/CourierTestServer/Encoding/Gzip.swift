import CZlib
import Foundation

/// gzip (RFC 1952) with zlib: the `/gzip` body, and the checksum the gzip bomb's trailer needs.
enum Gzip {
    /// A zlib call that failed, which only running out of memory causes; the route answers 500.
    struct Failure: Error, CustomStringConvertible {
        let call: String
        let status: Int32
        var description: String { "zlib's \(call) failed with status \(status)" }
    }

    /// `data` as one gzip member, deflated at zlib's default level.
    static func compressed(_ data: Data) throws -> Data {
        var stream = z_stream()
        // windowBits 15 + 16: zlib writes the gzip header and trailer around the deflate stream.
        var status = deflateInit2_(
            &stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY,
            ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else { throw Failure(call: "deflateInit2", status: status) }
        defer { deflateEnd(&stream) }
        var input = [UInt8](data)
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(input.count))))
        status = input.withUnsafeMutableBufferPointer { input in
            output.withUnsafeMutableBufferPointer { output in
                stream.next_in = input.baseAddress
                stream.avail_in = uInt(input.count)
                stream.next_out = output.baseAddress
                stream.avail_out = uInt(output.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        // deflateBound leaves room for the whole member, so one call finishes it.
        guard status == Z_STREAM_END else { throw Failure(call: "deflate", status: status) }
        return Data(output.prefix(Int(stream.total_out)))
    }

    /// The CRC-32 of `count` zero bytes, in time logarithmic in `count`: zlib's `crc32_combine`
    /// joins the checksums of two runs, so runs of 1, 2, 4… zeros add up to `count` and a
    /// multi-gigabyte gzip bomb carries a correct trailer without a pass over its bytes.
    static func crcOfZeros(count: Int) -> UInt32 {
        var crc: uLong = 0  // of no bytes
        var run: uLong = crc32(0, [0], 1)  // of `length` zeros
        var length = 1
        var remaining = count
        while remaining > 0 {
            if remaining & 1 == 1 { crc = crc32_combine(crc, run, length) }
            remaining >>= 1
            if remaining > 0 {
                run = crc32_combine(run, run, length)
                length *= 2
            }
        }
        return UInt32(crc)
    }
}
