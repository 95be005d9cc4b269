import Courier
import CourierCInterceptors
import HTTPTypes
import Logging

/// The JSON configuration of the built-in `logging` interceptor: where lines go (`fd`, 2 by
/// default, or a file at `path`, appended to), the lowest `level` written (`debug` adds heads
/// and bodies, as `-vv` does in the command-line tool), and what `LoggingInterceptor` redacts.
struct LoggingConfiguration: Decodable {
    var name: String?
    var level: Logger.Level = .info
    var destination = LogLineWriter.Destination.descriptor(2)
    var logsCurlCommand = false
    var maxLoggedBodyBytes = 4096
    var redaction = Redaction()

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case name, level, fd, path
        case logsCurlCommand = "curl_command"
        case maxLoggedBodyBytes = "max_body_bytes"
        case redactHeaders = "redact_headers"
        case redactQuery = "redact_query"
    }

    init() {}

    init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownMembers(besides: CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decodeIfPresent(String.self, forKey: .name)
        if let level = try container.decodeIfPresent(String.self, forKey: .level) {
            guard let parsed = Logger.Level(rawValue: level) else {
                let names = Logger.Level.allCases.map(\.rawValue).joined(separator: ", ")
                throw DecodingError.dataCorruptedError(
                    forKey: .level, in: container,
                    debugDescription: "unknown level \"\(level)\" (known: \(names))")
            }
            self.level = parsed
        }
        let descriptor = try container.decodeIfPresent(Int32.self, forKey: .fd)
        let path = try container.decodeIfPresent(String.self, forKey: .path)
        switch (descriptor, path) {
        case (_?, _?):
            throw DecodingError.dataCorruptedError(
                forKey: .path, in: container, debugDescription: "give fd or path, not both")
        case (let descriptor?, nil):
            guard descriptor >= 0 else {
                throw DecodingError.dataCorruptedError(
                    forKey: .fd, in: container, debugDescription: "must not be negative")
            }
            destination = .descriptor(descriptor)
        case (nil, let path?):
            guard !path.isEmpty else {
                throw DecodingError.dataCorruptedError(
                    forKey: .path, in: container, debugDescription: "must not be empty")
            }
            destination = .file(path)
        case (nil, nil):
            break
        }
        logsCurlCommand = try container.decodeIfPresent(Bool.self, forKey: .logsCurlCommand) ?? false
        if let limit = try container.decodeIfPresent(Int.self, forKey: .maxLoggedBodyBytes) {
            guard limit >= 0 else {
                throw DecodingError.dataCorruptedError(
                    forKey: .maxLoggedBodyBytes, in: container, debugDescription: "must not be negative")
            }
            maxLoggedBodyBytes = limit
        }
        for name in try container.decodeIfPresent([String].self, forKey: .redactHeaders) ?? [] {
            guard let field = HTTPField.Name(name) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .redactHeaders, in: container,
                    debugDescription: "\"\(name)\" is not a header name")
            }
            redaction.headers.insert(field)
        }
        redaction.queryItems.formUnion(try container.decodeIfPresent([String].self, forKey: .redactQuery) ?? [])
    }
}
