/// CRC-32 with the IEEE polynomial, the checksum in every gzip trailer.
enum CRC32 {
    /// The polynomial in reflected bit order: bit 31 holds the coefficient of x⁰.
    private static let polynomial: UInt32 = 0xEDB8_8320

    private static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 != 0 ? (value >> 1) ^ polynomial : value >> 1 }
        return value
    }

    /// The CRC-32 of `bytes`.
    static func checksum(_ bytes: some Sequence<UInt8>) -> UInt32 {
        var register: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            register = table[Int((register ^ UInt32(byte)) & 0xFF)] ^ (register >> 8)
        }
        return ~register
    }

    /// The CRC-32 of `count` zero bytes, in time logarithmic in `count`.
    ///
    /// Feeding a zero byte multiplies the register by x⁸ modulo the polynomial, so `count` zeros
    /// multiply the initial register by x^(8·count), found by repeated squaring. This lets a
    /// multi-gigabyte gzip bomb carry a correct trailer without touching every byte.
    static func checksumOfZeros(count: Int) -> UInt32 {
        ~multiply(0xFFFF_FFFF, power(of: 8 * count))
    }

    /// a·b modulo the polynomial, both in reflected order.
    private static func multiply(_ a: UInt32, _ b: UInt32) -> UInt32 {
        var product: UInt32 = 0
        var multiple = b
        var bit: UInt32 = 1 << 31
        while bit != 0 {
            if a & bit != 0 { product ^= multiple }
            multiple = multiple & 1 != 0 ? (multiple >> 1) ^ polynomial : multiple >> 1
            bit >>= 1
        }
        return product
    }

    /// x^exponent modulo the polynomial, in reflected order.
    private static func power(of exponent: Int) -> UInt32 {
        var result: UInt32 = 1 << 31
        var square: UInt32 = 1 << 30
        var remaining = exponent
        while remaining > 0 {
            if remaining & 1 == 1 { result = multiply(result, square) }
            square = multiply(square, square)
            remaining >>= 1
        }
        return result
    }
}
