import HTTPTypes

/// Adds a media type to `Accept`; several `Accept` blocks accumulate into one line (`application/json, text/plain;q=0.5`).
public struct Accept: RequestBuildable, Sendable {
    /// The media type accepted.
    public let type: MIMEType
    /// The preference weight from 0 to 1, or `nil` for the default of 1.
    public let quality: Double?

    /// Accepts `type`, with an optional `quality` weight (0…1, at most three decimals are sent).
    public init(_ type: MIMEType, quality: Double? = nil) {
        self.type = type
        self.quality = quality
    }

    public func apply(to draft: inout RequestDraft) throws {
        let value = try QualityValue.append(quality, to: type.rawValue, block: "Accept")
        try draft.addHeader(.accept, value, block: "Accept")
    }
}

/// RFC 9110 §12.4.2 quality values: `;q=` followed by 0 to 1 with at most three decimals.
enum QualityValue {
    /// `value;q=…`, or `value` alone when `quality` is `nil`.
    static func append(_ quality: Double?, to value: String, block: String) throws -> String {
        guard let quality else { return value }
        return value + ";q=" + (try format(quality, block: block))
    }

    /// The shortest form of `quality` rounded to three decimals: `1`, `0.8`, `0.125`.
    static func format(_ quality: Double, block: String) throws -> String {
        guard quality.isFinite, (0...1).contains(quality) else {
            throw CourierError.invalidRequest("quality \(quality) is outside 0…1", block: block)
        }
        let thousandths = Int((quality * 1000).rounded())
        if thousandths == 1000 { return "1" }
        if thousandths == 0 { return "0" }
        var digits = String(thousandths)
        digits = String(repeating: "0", count: 3 - digits.count) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        return "0." + digits
    }
}
