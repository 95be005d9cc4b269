public import HTTPTypes

extension HTTPFields {
    /// Why these response header fields frame the body ambiguously, or `nil` when they do not.
    ///
    /// RFC 9112 §6.3: `Transfer-Encoding` together with `Content-Length`, or several
    /// `Content-Length` values that differ, are the raw material of response smuggling; a
    /// client must treat them as an error rather than guess. Transports call this once the head
    /// is complete and fail the exchange with `invalidResponse` when it returns a reason.
    public var framingProblem: String? {
        // The common case without arrays or sets: no Content-Length, or one plain number and no Transfer-Encoding.
        switch contentLengthShape {
        case .absent:
            return nil
        case .single(let length) where !contains(.transferEncoding) && Self.isDecimal(length):
            return nil
        case .single, .several:
            break
        }
        let lengths = self[values: .contentLength].flatMap { $0.split(separator: ",") }.map { $0.trimmingSpaces() }
        if self[.transferEncoding] != nil, !lengths.isEmpty {
            return "the response has both Transfer-Encoding and Content-Length"
        }
        if Set(lengths).count > 1 {
            return "the response has conflicting Content-Length values (\(lengths.joined(separator: ", ")))"
        }
        if let length = lengths.first, !Self.isDecimal(length) {
            return "the response has an invalid Content-Length \"\(length)\""
        }
        return nil
    }

    /// One or more ASCII digits, as a Content-Length must be.
    private static func isDecimal(_ text: some StringProtocol) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }

    private enum ContentLengthShape {
        case absent
        /// One field with one value (no comma).
        case single(String)
        /// Several fields, or a comma-separated list.
        case several
    }

    private var contentLengthShape: ContentLengthShape {
        var shape = ContentLengthShape.absent
        for field in self where field.name == .contentLength {
            guard case .absent = shape, !field.value.utf8.contains(UInt8(ascii: ",")) else { return .several }
            shape = .single(field.value)
        }
        return shape
    }
}
