import Foundation

/// Splits a `multipart/form-data` body (RFC 7578) into its parts, for httpbin's `form` and `files`.
///
/// Lenient as a test server should be about what it reports, strict about framing: a body whose
/// delimiters cannot be found gives no parts, and httpbin's answer then shows empty `form` and
/// `files` rather than guessed ones.
struct MultipartFormParser {
    /// One part: its field name, its file name when it is a file, and its bytes.
    struct Part: Equatable {
        var name: String
        var filename: String?
        var contentType: String?
        var body: Data
    }

    /// The boundary from a `Content-Type: multipart/form-data; boundary=…` value, unquoted.
    static func boundary(fromContentType type: String) -> String? {
        for parameter in type.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2, pair[0].lowercased() == "boundary" else { continue }
            let value = pair[1]
            return value.count >= 2 && value.hasPrefix("\"") && value.hasSuffix("\"")
                ? String(value.dropFirst().dropLast()) : value
        }
        return nil
    }

    /// The parts of `body`, delimited by `--boundary` lines, in order.
    static func parts(of body: Data, boundary: String) -> [Part] {
        let delimiter = Data("--\(boundary)".utf8)
        var parts: [Part] = []
        guard var cursor = body.range(of: delimiter)?.upperBound else { return [] }
        while cursor < body.endIndex {
            // After a delimiter: "--" ends the body, CRLF starts a part.
            if body[cursor...].starts(with: Data("--".utf8)) { break }
            guard body[cursor...].starts(with: Data("\r\n".utf8)) else { break }
            let start = cursor + 2
            guard let next = body.range(of: Data("\r\n".utf8) + delimiter, in: start..<body.endIndex) else { break }
            if let part = part(from: body[start..<next.lowerBound]) { parts.append(part) }
            cursor = next.upperBound
        }
        return parts
    }

    /// One part's headers and body, or `nil` without a `Content-Disposition: form-data; name=…`.
    private static func part(from bytes: Data) -> Part? {
        let separator = Data("\r\n\r\n".utf8)
        let headerEnd = bytes.range(of: separator)
        let headerBytes = headerEnd.map { bytes[bytes.startIndex..<$0.lowerBound] } ?? bytes
        let body = headerEnd.map { Data(bytes[$0.upperBound...]) } ?? Data()
        var name: String?
        var filename: String?
        var contentType: String?
        for line in String(decoding: headerBytes, as: UTF8.self).components(separatedBy: "\r\n") {
            let pair = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2 else { continue }
            switch pair[0].lowercased() {
            case "content-disposition":
                for parameter in pair[1].split(separator: ";").dropFirst() {
                    let field = parameter.split(separator: "=", maxSplits: 1).map {
                        $0.trimmingCharacters(in: .whitespaces)
                    }
                    guard field.count == 2 else { continue }
                    let value =
                        field[1].count >= 2 && field[1].hasPrefix("\"") && field[1].hasSuffix("\"")
                        ? String(field[1].dropFirst().dropLast()) : field[1]
                    switch field[0].lowercased() {
                    case "name": name = value
                    case "filename": filename = value
                    default: break
                    }
                }
            case "content-type":
                contentType = pair[1]
            default:
                break
            }
        }
        guard let name else { return nil }
        return Part(name: name, filename: filename, contentType: contentType, body: body)
    }
}
