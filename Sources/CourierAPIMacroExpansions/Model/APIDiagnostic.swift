import SwiftDiagnostics
import SwiftSyntax

/// Every compile-time error of the API macros, with a message that says what to do.
enum APIDiagnostic: DiagnosticMessage {
    case missingAsyncThrows(function: String)
    case noMethodAttribute(function: String)
    case twoMethodAttributes(function: String, first: String, second: String)
    case unknownPlaceholder(placeholder: String, function: String)
    case noRole(parameter: String, function: String, method: String)
    case closureParameter(parameter: String)
    case twoBodies(function: String, first: String, second: String)
    case bodyAndFields(function: String, body: String, fields: [String])
    case partWithoutMultipart(parameter: String)
    case eventStreamingReturn(type: String)
    case completionShape(parameter: String)
    case completionWithResult(function: String)
    case pathNotLiteral(attribute: String)
    case unsupportedTuple(type: String)
    case apiOnOtherDeclaration
    case mockOnOtherDeclaration

    var message: String {
        switch self {
        case .missingAsyncThrows(let function):
            "endpoint '\(function)' must be 'async throws': it sends a request, which suspends and can fail"
        case .noMethodAttribute(let function):
            "'\(function)' has no method attribute; an endpoint needs one such as @GET(\"/path\")"
        case .twoMethodAttributes(let function, let first, let second):
            "'\(function)' has two method attributes, @\(first) and @\(second); an endpoint has exactly one"
        case .unknownPlaceholder(let placeholder, let function):
            "path placeholder '\(placeholder)' matches no parameter of '\(function)'"
        case .noRole(let parameter, let function, let method):
            "parameter '\(parameter)' of '\(function)' matches no role: a \(method) endpoint sends only simple values (strings, numbers, Bool, arrays and [String: String]) as query items; mark it @Query, @Body, @Field or @Header"
        case .closureParameter(let parameter):
            "parameter '\(parameter)' matches no role: a closure is only allowed as the last parameter, as a completion handler"
        case .twoBodies(let function, let first, let second):
            "'\(function)' has two bodies, '\(first)' and '\(second)'; an endpoint sends at most one"
        case .bodyAndFields(let function, let body, let fields):
            "'\(function)' mixes a body ('\(body)') with fields (\(fields.map { "'\($0)'" }.joined(separator: ", "))); send them inside one body, or make them query items"
        case .partWithoutMultipart(let parameter):
            "@Part on '\(parameter)' needs a multipart endpoint; add @Multipart to the function or its type"
        case .eventStreamingReturn(let type):
            "@EventStreaming endpoints return AsyncStream<T> or AsyncThrowingStream<T, any Error> of String, ServerSentEvent or a Decodable type, not '\(type)'"
        case .completionShape(let parameter):
            "completion handler '\(parameter)' must have the type '@escaping (Result<T, any Error>) -> Void' or '@escaping (Response) -> Void'"
        case .completionWithResult(let function):
            "'\(function)' has a completion handler, so it must be neither async nor throwing and return nothing"
        case .pathNotLiteral(let attribute):
            "the path of @\(attribute) must be a string literal, so placeholders can be checked when compiling"
        case .unsupportedTuple(let type):
            "the tuple return type '\(type)' is not supported: label every element to decode it from the response object's keys, or return (T, Response)"
        case .apiOnOtherDeclaration:
            "@API applies to a struct or a protocol"
        case .mockOnOtherDeclaration:
            "@Mock applies to a protocol"
        }
    }

    var diagnosticID: MessageID {
        let name: String =
            switch self {
            case .missingAsyncThrows: "missingAsyncThrows"
            case .noMethodAttribute: "noMethodAttribute"
            case .twoMethodAttributes: "twoMethodAttributes"
            case .unknownPlaceholder: "unknownPlaceholder"
            case .noRole: "noRole"
            case .closureParameter: "closureParameter"
            case .twoBodies: "twoBodies"
            case .bodyAndFields: "bodyAndFields"
            case .partWithoutMultipart: "partWithoutMultipart"
            case .eventStreamingReturn: "eventStreamingReturn"
            case .completionShape: "completionShape"
            case .completionWithResult: "completionWithResult"
            case .pathNotLiteral: "pathNotLiteral"
            case .unsupportedTuple: "unsupportedTuple"
            case .apiOnOtherDeclaration: "apiOnOtherDeclaration"
            case .mockOnOtherDeclaration: "mockOnOtherDeclaration"
            }
        return MessageID(domain: "CourierAPI", id: name)
    }

    var severity: DiagnosticSeverity { .error }
}

/// The label of a fix-it.
struct APIFixIt: FixItMessage {
    let message: String
    var fixItID: MessageID { MessageID(domain: "CourierAPI", id: message) }
}
