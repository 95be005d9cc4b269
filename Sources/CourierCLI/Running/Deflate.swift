import CZlib
import Courier
import Foundation

/// zlib's deflate, as `--compress` sends it: the zlib format (RFC 1950) that HTTPie's
/// `zlib.compressobj()` writes and servers read for `Content-Encoding: deflate`.
enum Deflate {
    /// `data` deflated at zlib's default level.
    ///
    /// - Throws: `CourierError` (`encodingFailed`) if zlib reports an error, which only running
    ///   out of memory causes.
    static func compress(_ data: Data) throws -> Data {
        var capacity = compressBound(uLong(data.count))
        var output = Data(count: Int(capacity))
        // An empty body still needs a non-null source pointer for zlib, so it deflates a copy with one byte of room.
        let source = data.isEmpty ? Data([0]) : data
        let status = output.withUnsafeMutableBytes { target in
            source.withUnsafeBytes { bytes in
                compress2(
                    target.baseAddress!.assumingMemoryBound(to: Bytef.self), &capacity,
                    bytes.baseAddress!.assumingMemoryBound(to: Bytef.self), uLong(data.count), Z_DEFAULT_COMPRESSION)
            }
        }
        guard status == Z_OK else {
            throw CourierError(
                .encodingFailed, "zlib could not deflate the body (status \(status))", source: "--compress")
        }
        output.count = Int(capacity)
        return output
    }
}
