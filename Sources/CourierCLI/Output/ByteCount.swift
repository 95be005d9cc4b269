/// Byte counts for people: `512 B`, `1.5 KiB`, `3.2 MiB`.
enum ByteCount {
    static func format(_ bytes: Int64) -> String {
        guard bytes >= 1024 else { return "\(bytes) B" }
        var value = Double(bytes)
        for unit in ["KiB", "MiB", "GiB", "TiB"] {
            value /= 1024
            if value < 1024 || unit == "TiB" { return "\(oneDecimal(value)) \(unit)" }
        }
        return "\(bytes) B"
    }

    /// `value` with one digit after the point, rounded.
    static func oneDecimal(_ value: Double) -> String {
        let tenths = Int64((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}
