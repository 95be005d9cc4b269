/// Percent-encoding (RFC 3986 §2.1) with the character sets each part of a request needs.
enum PercentEncoding {
    /// A set of ASCII bytes left as they are; every other byte becomes `%XX`.
    struct AllowedSet: Sendable {
        /// One bit per ASCII byte: bytes 0–63 in `low`, 64–127 in `high`; a value, so checking a
        /// byte is a shift and a mask, with no array to reach.
        private var low: UInt64 = 0
        private var high: UInt64 = 0

        init(_ characters: String) {
            self = AllowedSet().adding(characters)
        }

        private init() {}

        func contains(_ byte: UInt8) -> Bool {
            byte < 64 ? low & (1 << UInt64(byte)) != 0 : byte < 128 && high & (1 << UInt64(byte - 64)) != 0
        }

        func adding(_ characters: String) -> AllowedSet {
            var copy = self
            for byte in characters.utf8 where byte < 128 {
                if byte < 64 { copy.low |= 1 << UInt64(byte) } else { copy.high |= 1 << UInt64(byte - 64) }
            }
            return copy
        }
    }

    /// ASCII letters and digits alone: what Foundation's `.alphanumerics` leaves of ASCII.
    static let alphanumerics = AllowedSet("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")

    /// RFC 3986 unreserved characters: `A-Z a-z 0-9 - . _ ~`.
    static let unreserved = AllowedSet("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// A single path segment: unreserved, sub-delims, `:` and `@`; `/` is encoded so it cannot add a segment.
    static let pathSegment = unreserved.adding("!$&'()*+,;=:@")

    /// A query name or value: `&`, `=`, `+`, `;` and `#` are encoded, because servers split or decode on them.
    static let queryComponent = unreserved.adding("!$'()*,/:?@")

    /// An `application/x-www-form-urlencoded` name or value (WHATWG URL §5.2); a space is written as `+`.
    static let formComponent = AllowedSet("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789*-._")

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    /// `string` with every UTF-8 byte outside `allowed` written as `%XX` (and spaces as `+` when `spaceAsPlus`).
    static func encode(_ string: String, allowing allowed: AllowedSet, spaceAsPlus: Bool = false) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(string.utf8.count)
        for byte in string.utf8 {
            if allowed.contains(byte) {
                output.append(byte)
            } else if spaceAsPlus && byte == UInt8(ascii: " ") {
                output.append(UInt8(ascii: "+"))
            } else {
                output.append(UInt8(ascii: "%"))
                output.append(hexDigits[Int(byte >> 4)])
                output.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// `string` with every `%XX` decoded, or `nil` when a `%` is not followed by two hex digits or
    /// the bytes are not UTF-8 (what Foundation's `removingPercentEncoding` gives; `+` stays).
    static func decode(_ string: some StringProtocol) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(string.utf8.count)
        var iterator = string.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                return nil
            }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// `name=value` pairs joined by `&`, in order; a `nil` value writes the name alone.
    static func encodeQuery(
        _ items: [(name: String, value: String?)], allowing allowed: AllowedSet, spaceAsPlus: Bool = false
    ) -> String {
        items.map { item in
            let name = encode(item.name, allowing: allowed, spaceAsPlus: spaceAsPlus)
            guard let value = item.value else { return name }
            return name + "=" + encode(value, allowing: allowed, spaceAsPlus: spaceAsPlus)
        }.joined(separator: "&")
    }
}
