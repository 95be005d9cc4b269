import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder

extension EndpointAnalyzer {
    mutating func readResult(completion: (completion: Completion, value: TypeSyntax?)?) -> ResultKind? {
        if let completion {
            switch completion.completion.kind {
            case .response: return .response
            case .result: return completion.value.flatMap { resultKind(of: $0) } ?? .void
            }
        }
        let returnType = function.signature.returnClause?.type
        if function.attributes.first(named: ["EventStreaming"]) != nil {
            return eventsKind(returnType)
        }
        guard let returnType else { return .void }
        return resultKind(of: returnType)
    }

    private mutating func resultKind(of type: TypeSyntax) -> ResultKind? {
        let text = type.trimmedDescription
        if type.isVoid { return .void }
        switch text {
        case "Response": return .response
        case "Data": return .data
        case "HTTPFields", "HTTPHeaders": return .headers
        default: break
        }
        if let wrapped = type.optionalWrapped {
            if wrapped.trimmedDescription == "Data" { return .optionalData }
            return .decodeIfPresent(wrapped.trimmedDescription)
        }
        if let tuple = type.as(TupleTypeSyntax.self) {
            let elements = Array(tuple.elements)
            if elements.count == 2, elements.allSatisfy({ $0.firstName == nil }),
                elements[1].type.trimmedDescription == "Response"
            {
                return .decodeWithResponse(elements[0].type.trimmedDescription)
            }
            guard Self.isLabelledTuple(tuple) else {
                diagnostics.append(Diagnostic(node: type, message: APIDiagnostic.unsupportedTuple(type: text)))
                return nil
            }
            return .tuple(tuple)
        }
        return .decode(text)
    }

    /// Whether every element, and every element of nested tuples, has a label.
    static func isLabelledTuple(_ tuple: TupleTypeSyntax) -> Bool {
        tuple.elements.allSatisfy { element in
            guard element.firstName != nil else { return false }
            if let nested = element.type.as(TupleTypeSyntax.self) { return isLabelledTuple(nested) }
            if let array = element.type.as(ArrayTypeSyntax.self), let nested = array.element.as(TupleTypeSyntax.self) {
                return isLabelledTuple(nested)
            }
            return true
        }
    }

    private mutating func eventsKind(_ type: TypeSyntax?) -> ResultKind? {
        if let type, let nominal = type.nominal {
            let throwing = nominal.name == "AsyncThrowingStream" && nominal.arguments.count == 2
            let plain = nominal.name == "AsyncStream" && nominal.arguments.count == 1
            if throwing || plain, let element = nominal.arguments.first {
                let elementText = element.trimmedDescription
                let kind: ResultKind.EventElement =
                    switch elementText {
                    case "String": .data
                    case "ServerSentEvent": .event
                    default: .decoded(elementText)
                    }
                if element.is(TupleTypeSyntax.self) || element.is(FunctionTypeSyntax.self) {
                    diagnoseEventsReturn(type)
                    return nil
                }
                return .events(element: kind, throwing: throwing)
            }
        }
        diagnoseEventsReturn(type)
        return nil
    }

    private mutating func diagnoseEventsReturn(_ type: TypeSyntax?) {
        let replacement = TypeSyntax(IdentifierTypeSyntax(name: .identifier("AsyncThrowingStream<String, any Error>")))
        var signature = function.signature
        if let type {
            signature.returnClause?.type = replacement.with(\.leadingTrivia, type.leadingTrivia).with(
                \.trailingTrivia, type.trailingTrivia)
        } else {
            signature.returnClause = ReturnClauseSyntax(
                arrow: .arrowToken(leadingTrivia: .space, trailingTrivia: .space), type: replacement)
        }
        diagnostics.append(
            Diagnostic(
                node: type.map(Syntax.init) ?? Syntax(function.name),
                message: APIDiagnostic.eventStreamingReturn(type: type?.trimmedDescription ?? "Void"),
                fixIt: FixIt(
                    message: APIFixIt(message: "return AsyncThrowingStream<String, any Error>"),
                    changes: [.replace(oldNode: Syntax(function.signature), newNode: Syntax(signature))])
            ))
    }

    /// Statements that apply type-level then method-level attributes; the method's win.
    func optionStatements(encoding: AttributeSyntax?) -> [String] {
        let method = function.attributes.plain
        func pick(_ names: Set<String>) -> AttributeSyntax? {
            method.first { names.contains($0.name) } ?? typeAttributes.first { names.contains($0.name) }
        }
        func arguments(_ attribute: AttributeSyntax) -> String {
            attribute.labeledArguments.map { $0.with(\.trailingComma, nil).trimmedDescription }.joined(separator: ", ")
        }
        var statements: [String] = []
        if let encoding {
            let kind =
                switch encoding.name {
                case "JSON": "json"
                case "Multipart": "multipart"
                default: "urlForm"
                }
            statements.append("endpoint.encoding = .\(kind)(\(arguments(encoding)))")
        }
        if let mapping = pick(["KeyMapping"]), let expression = mapping.argument(nil) {
            statements.append("endpoint.keyMapping = \(expression.trimmedDescription)")
        }
        if let timeout = pick(["Timeout"]), let expression = timeout.argument(nil) {
            statements.append("endpoint.timeout = .seconds(\(expression.trimmedDescription))")
        }
        if let retry = pick(["Retry"]) {
            statements.append("endpoint.retry(\(retry.labeledArguments.isEmpty ? "maxAttempts: 3" : arguments(retry)))")
        }
        if let errorBody = pick(["ErrorBody"]), let expression = errorBody.argument(nil) {
            statements.append("endpoint.errorBody(\(expression.trimmedDescription))")
        }
        if let keyPath = method.first(where: { $0.name == "ResponseKeyPath" }), let expression = keyPath.argument(nil) {
            statements.append("endpoint.responseKeyPath = \(expression.trimmedDescription)")
        }
        for headers in typeAttributes.filter({ $0.name == "Headers" }) + method.filter({ $0.name == "Headers" }) {
            if let expression = headers.argument(nil) {
                statements.append("endpoint.headers(\(expression.trimmedDescription))")
            }
        }
        if let authorization = pick(["Authorization"]), let expression = authorization.argument(nil) {
            statements.append("endpoint.authorization(\(expression.trimmedDescription))")
        }
        return statements
    }
}
