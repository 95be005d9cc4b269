import Foundation

/// A request described as httpbin describes it (`args`, `data`, `files`, `form`, `headers` as an
/// object, `json`, `origin`, `url`), so scripts, docs and tests written against httpbin work
/// unchanged against the test server and `courier serve`.
///
/// Every answer also carries the server's exact view under names httpbin does not use: `method`,
/// `path` and `query` as sent, `header_list` (each header line in order, names as sent), and
/// `body_base64` and `body_length`, which ``EchoedRequest`` decodes.
struct HTTPBinEcho {
    /// Which of httpbin's parts an answer has: `/get` has no body parts, `/headers` only headers.
    enum Shape {
        /// `/get`: `args`, `headers`, `origin`, `url`.
        case query
        /// `/anything`, `/post`, `/put`, `/patch`, `/delete`: everything.
        case withBody
        /// `/headers`: `headers` only.
        case headers
    }

    let request: TestServerRequest

    /// The JSON object of the answer.
    func object(_ shape: Shape) -> [String: Any] {
        var object: [String: Any] = ["headers": headers, "header_list": request.headers.map { [$0.name, $0.value] }]
        guard shape != .headers else { return object }
        object["args"] = Self.grouped(request.queryItems)
        object["origin"] = request.origin
        object["url"] = url
        object["method"] = request.method
        object["path"] = request.path
        object["query"] = request.query ?? ""
        object["body_base64"] = request.body.base64EncodedString()
        object["body_length"] = request.body.count
        guard shape == .withBody else { return object }
        var form: [(name: String, value: String)] = []
        var files: [(name: String, value: String)] = []
        var data = Self.text(request.body)
        let type = request.header("content-type") ?? ""
        let essence =
            type.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        if essence == "application/x-www-form-urlencoded" {
            form = TestServerRequest.formPairs(String(decoding: request.body, as: UTF8.self))
            data = ""
        } else if essence == "multipart/form-data", let boundary = MultipartFormParser.boundary(fromContentType: type) {
            for part in MultipartFormParser.parts(of: request.body, boundary: boundary) {
                if part.filename != nil {
                    files.append((part.name, Self.text(part.body, type: part.contentType)))
                } else {
                    form.append((part.name, String(decoding: part.body, as: UTF8.self)))
                }
            }
            data = ""
        }
        object["data"] = data
        object["form"] = Self.grouped(form)
        object["files"] = Self.grouped(files)
        object["json"] = (try? JSONSerialization.jsonObject(with: request.body, options: .fragmentsAllowed)) ?? NSNull()
        return object
    }

    /// The answer's bytes: compact JSON with sorted keys, as the test server writes all JSON.
    func json(_ shape: Shape) throws -> Data {
        try JSONSerialization.data(withJSONObject: object(shape), options: [.sortedKeys, .withoutEscapingSlashes])
    }

    /// httpbin's `headers`: names as Werkzeug gives them (`X-Api-Key`), a repeated name's values joined by `,`.
    var headers: [String: String] {
        var headers: [String: String] = [:]
        for (name, value) in request.headers {
            let titled = name.split(separator: "-", omittingEmptySubsequences: false)
                .map { $0.prefix(1).uppercased() + $0.dropFirst().lowercased() }
                .joined(separator: "-")
            headers[titled] = headers[titled].map { $0 + "," + value } ?? value
        }
        return headers
    }

    /// httpbin's `url`: the scheme, the `Host` header and the target as sent.
    var url: String {
        "http://" + (request.header("host") ?? "127.0.0.1") + request.target
    }

    /// Pairs as httpbin groups them: a name once is a string, a name repeated a list, in order.
    static func grouped(_ pairs: [(name: String, value: String)]) -> [String: Any] {
        var grouped: [String: Any] = [:]
        for (name, value) in pairs {
            switch grouped[name] {
            case nil: grouped[name] = value
            case let list as [String]: grouped[name] = list + [value]
            case let single as String: grouped[name] = [single, value]
            default: break
            }
        }
        return grouped
    }

    /// Bytes as httpbin shows them: UTF-8 text as it is, anything else as a base64 data URL.
    static func text(_ bytes: Data, type: String? = nil) -> String {
        if let text = String(data: bytes, encoding: .utf8) { return text }
        return "data:\(type ?? "application/octet-stream");base64," + bytes.base64EncodedString()
    }
}
