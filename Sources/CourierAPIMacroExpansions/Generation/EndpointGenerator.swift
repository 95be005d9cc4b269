import SwiftSyntax

/// Writes the code of an endpoint: its `<name>Request(…)` function and the body that sends it.
struct EndpointGenerator {
    let endpoint: Endpoint

    /// The parameters of the request function: the endpoint's, without the completion handler.
    var parameterList: String {
        endpoint.parameters.map { $0.syntax.with(\.trailingComma, nil).trimmedDescription }.joined(separator: ", ")
    }

    /// `name: name` arguments passing the endpoint's parameters on.
    var argumentList: String {
        endpoint.parameters.map { parameter in
            parameter.label.map { "\($0): \(parameter.internalName)" } ?? parameter.internalName
        }.joined(separator: ", ")
    }

    var requestFunctionName: String { "\(endpoint.name)Request" }

    /// Whether the endpoint has a `<name>Request(…)` function: completion-handler endpoints build
    /// their request inside the call, so one declared beside its async twin does not clash with it.
    var hasRequestFunction: Bool { endpoint.completion == nil }

    /// The statements that build the endpoint's `Request`, ending with its `return`.
    func requestStatements() -> [String] {
        let statements = endpoint.optionStatements + endpoint.parameters.map(statement(for:))
        let binding = statements.isEmpty ? "let" : "var"
        var lines = [
            "\(binding) endpoint = APIRequest(method: \(literal(endpoint.method)), path: \(literal(endpoint.path)))"
        ]
        lines += statements
        lines.append("return try provider.request(for: endpoint)")
        return lines
    }

    /// `func <name>Request(…) throws -> Request`, which builds the endpoint's request without sending it.
    func requestFunction(access: String?) -> String {
        """
        /// The request `\(endpoint.name)` sends, built but not sent.
        \(access.map { "\($0) " } ?? "")func \(requestFunctionName)(\(parameterList)) throws -> Request {
        \(requestStatements().map { "    " + $0 }.joined(separator: "\n"))
        }
        """
    }

    private func statement(for parameter: Parameter) -> String {
        let value = parameter.internalName
        switch parameter.role {
        case .path(let name, let encoded):
            return "endpoint.path(\(literal(name)), \(value)\(encoded ? ", encoded: true" : ""))"
        case .query(let name, let encoded):
            return "endpoint.query(\(literal(name)), \(value)\(encoded ? ", encoded: true" : ""))"
        case .header(let name):
            return "endpoint.header(\(literal(name)), \(value))"
        case .headerMap:
            return "endpoint.headers(\(value))"
        case .body:
            return "endpoint.body(\(value))"
        case .field(let name):
            return "endpoint.field(\(literal(name)), \(value))"
        case .part(let name, let filename, let mimeType):
            var arguments = "name: \(literal(name))"
            if let filename { arguments += ", filename: \(literal(filename))" }
            if let mimeType { arguments += ", mimeType: \(literal(mimeType))" }
            return "endpoint.part(\(arguments), \(value))"
        case .block:
            return "endpoint.apply(\(value))"
        }
    }

    /// The statements of the endpoint function's body.
    func bodyStatements() -> [String] {
        let build = "\(requestFunctionName)(\(argumentList))"
        guard let completion = endpoint.completion else {
            return ["let request = try \(build)"] + responseStatements(provider: "provider")
        }
        let failure = completion.kind == .response ? "failResponse" : "fail"
        let fallback = completion.returnsTask ? "return Task {}" : "return"
        let start = completion.returnsTask ? "return " : ""
        var lines = ["func makeRequest() throws -> Request {"]
        lines += requestStatements().map { "    " + $0 }
        lines += [
            "}",
            "let request: Request",
            "do {",
            "    request = try makeRequest()",
            "} catch {",
            "    provider.\(failure)(error, \(completion.parameterName))",
            "    \(fallback)",
            "}",
        ]
        if completion.kind == .response {
            lines.append("\(start)provider.completeResponse(request, \(completion.parameterName))")
        } else {
            lines.append("\(start)provider.complete(request, \(completion.parameterName)) { provider, request in")
            lines += responseStatements(provider: "provider").map { "    " + $0 }
            lines.append("}")
        }
        return lines
    }

    /// Statements that send `request` and return what the endpoint declares.
    func responseStatements(provider: String) -> [String] {
        switch endpoint.result {
        case .void: return ["try await \(provider).send(request)"]
        case .response: return ["return try await \(provider).response(request)"]
        case .data: return ["return try await \(provider).data(request)"]
        case .optionalData: return ["return try await \(provider).dataIfPresent(request)"]
        case .headers: return ["return try await \(provider).headers(request)"]
        case .decode(let type): return ["return try await \(provider).decode(request, as: \(type).self)"]
        case .decodeIfPresent(let type):
            return ["return try await \(provider).decodeIfPresent(request, as: \(type).self)"]
        case .decodeWithResponse(let type):
            return ["return try await \(provider).decodeWithResponse(request, as: \(type).self)"]
        case .tuple(let tuple):
            var tuples = TupleDecoding()
            let root = tuples.declare(tuple)
            return tuples.declarations + [
                "let value = try await \(provider).decode(request, as: \(root).self)",
                "return \(tuples.conversion(of: tuple, from: "value", depth: 0))",
            ]
        case .events(let element, let throwing):
            let stream =
                switch element {
                case .data: "\(provider).eventData(request)"
                case .event: "\(provider).events(request)"
                case .decoded(let type): "\(provider).decodedEvents(request, as: \(type).self)"
                }
            return ["return \(throwing ? stream : "\(provider).nonThrowing(\(stream))")"]
        }
    }
}

/// A Swift string literal of `text`.
func literal(_ text: String) -> String {
    var escaped = ""
    for character in text {
        switch character {
        case "\\": escaped += "\\\\"
        case "\"": escaped += "\\\""
        case "\n": escaped += "\\n"
        default: escaped.append(character)
        }
    }
    return "\"\(escaped)\""
}

/// Local `Decodable` structs standing in for labelled tuples, which cannot conform to `Decodable`.
struct TupleDecoding {
    private(set) var declarations: [String] = []
    private var count = 0

    /// Declares a struct for `tuple` (and its nested tuples) and returns its name.
    mutating func declare(_ tuple: TupleTypeSyntax) -> String {
        let name = "ResponseTuple\(count)"
        count += 1
        var members: [String] = []
        for element in tuple.elements {
            members.append("let \(element.firstName?.text ?? "_"): \(storedType(element.type))")
        }
        declarations.append("struct \(name): Decodable {\n\(members.map { "    " + $0 }.joined(separator: "\n"))\n}")
        return name
    }

    private mutating func storedType(_ type: TypeSyntax) -> String {
        if let nested = type.as(TupleTypeSyntax.self) { return declare(nested) }
        if let array = type.as(ArrayTypeSyntax.self), let nested = array.element.as(TupleTypeSyntax.self) {
            return "[\(declare(nested))]"
        }
        return type.trimmedDescription
    }

    /// The tuple value built from a decoded struct, converting nested tuples and arrays of tuples.
    func conversion(of tuple: TupleTypeSyntax, from value: String, depth: Int) -> String {
        let parts = tuple.elements.map { element -> String in
            let label = element.firstName?.text ?? "_"
            let member = "\(value).\(label)"
            if let nested = element.type.as(TupleTypeSyntax.self) {
                return "\(label): \(conversion(of: nested, from: member, depth: depth + 1))"
            }
            if let array = element.type.as(ArrayTypeSyntax.self), let nested = array.element.as(TupleTypeSyntax.self) {
                let name = "element\(depth)"
                return "\(label): \(member).map { \(name) in \(conversion(of: nested, from: name, depth: depth + 1)) }"
            }
            return "\(label): \(member)"
        }
        return "(\(parts.joined(separator: ", ")))"
    }
}
