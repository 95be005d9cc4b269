public import Foundation

/// A value that can be one part of a multipart body: bytes, text, or a file streamed from disk.
public protocol PartValue {
    /// The part named `name`.
    func multipartPart(name: String, filename: String?, mimeType: MIMEType?) -> MultipartPart
}

extension Data: PartValue {
    public func multipartPart(name: String, filename: String?, mimeType: MIMEType?) -> MultipartPart {
        .data(name: name, filename: filename, data: self, type: mimeType ?? .octetStream)
    }
}

extension String: PartValue {
    public func multipartPart(name: String, filename: String?, mimeType: MIMEType?) -> MultipartPart {
        guard filename != nil || mimeType != nil else { return .field(name: name, value: self) }
        return .data(name: name, filename: filename, data: Data(utf8), type: mimeType ?? .plainText)
    }
}

extension URL: PartValue {
    public func multipartPart(name: String, filename: String?, mimeType: MIMEType?) -> MultipartPart {
        .file(name: name, fileURL: self, filename: filename, type: mimeType)
    }
}
