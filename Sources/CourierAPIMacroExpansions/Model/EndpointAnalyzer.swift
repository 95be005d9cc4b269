import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder

/// Reads an endpoint function and the attributes of its type into an `Endpoint`, collecting a
/// diagnostic with fix-its for everything that cannot work.
struct EndpointAnalyzer {
    static let methodAttributes: Set<String> = [
        "GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "TRACE", "CONNECT", "HTTP", "Http",
    ]
    /// Methods whose unannotated parameters are query items; the others send fields.
    static let queryMethods: Set<String> = ["GET", "HEAD", "DELETE", "OPTIONS", "TRACE"]
    static let parameterAttributes: Set<String> = ["Path", "Query", "Header", "Body", "Field", "Part", "HeaderMap"]
    static let simpleTypes: Set<String> = [
        "String", "Substring", "Character", "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16",
        "UInt32", "UInt64", "Double", "Float", "Bool", "UUID",
    ]

    let function: FunctionDeclSyntax
    let typeAttributes: [AttributeSyntax]
    var diagnostics: [Diagnostic] = []

    init(function: FunctionDeclSyntax, typeAttributes: [AttributeSyntax]) {
        self.function = function
        self.typeAttributes = typeAttributes
    }

    var name: String { function.name.text }

    var methodAttributes: [AttributeSyntax] {
        function.attributes.plain.filter { Self.methodAttributes.contains($0.name) }
    }

    /// The endpoint, or `nil` when a diagnostic says why there is none.
    mutating func analyze() -> Endpoint? {
        let methods = methodAttributes
        guard let methodAttribute = methods.first else {
            diagnoseMissingMethod()
            return nil
        }
        if methods.count > 1 {
            let second = methods[1]
            let remaining = Array(function.attributes).filter { element in
                if case .attribute(let attribute) = element { return attribute.id != second.id }
                return true
            }
            diagnostics.append(
                Diagnostic(
                    node: second,
                    message: APIDiagnostic.twoMethodAttributes(
                        function: name, first: methodAttribute.name, second: second.name),
                    fixIt: FixIt(
                        message: APIFixIt(message: "remove @\(second.name)"),
                        changes: [
                            .replace(
                                oldNode: Syntax(function.attributes), newNode: Syntax(AttributeListSyntax(remaining)))
                        ])
                ))
            return nil
        }
        guard let (method, path) = readMethod(methodAttribute) else { return nil }

        let attributes = function.attributes.plain
        let encoding = (attributes + typeAttributes).first {
            ["JSON", "FormUrlEncoded", "URLForm", "Multipart"].contains($0.name)
        }
        let isMultipart = encoding?.name == "Multipart"

        var parameterSyntaxes = Array(function.signature.parameterClause.parameters)
        let completion = readCompletion(&parameterSyntaxes)
        if completion == nil, !checkEffects() { return nil }
        guard let parameters = readParameters(parameterSyntaxes, method: method, path: path, isMultipart: isMultipart)
        else { return nil }
        guard checkBodies(parameters) else { return nil }
        guard let result = readResult(completion: completion), diagnostics.isEmpty else { return nil }
        return Endpoint(
            name: name, method: method, path: path, parameters: parameters, completion: completion.map(\.completion),
            result: result, optionStatements: optionStatements(encoding: encoding))
    }

    // MARK: Method and path

    private mutating func diagnoseMissingMethod() {
        let attribute = AttributeSyntax(
            attributeName: IdentifierTypeSyntax(name: .identifier("GET")),
            leftParen: .leftParenToken(),
            arguments: .argumentList([LabeledExprSyntax(expression: StringLiteralExprSyntax(content: "/"))]),
            rightParen: .rightParenToken())
        diagnostics.append(
            Diagnostic(
                node: function.name,
                message: APIDiagnostic.noMethodAttribute(function: name),
                fixIt: FixIt(
                    message: APIFixIt(message: "add @GET(\"/\")"),
                    changes: [
                        .replace(oldNode: Syntax(function), newNode: Syntax(Self.adding(attribute, to: function)))
                    ])
            ))
    }

    /// `function` with `attribute` on a line of its own before its other attributes.
    static func adding(_ attribute: AttributeSyntax, to function: FunctionDeclSyntax) -> FunctionDeclSyntax {
        let leading = function.leadingTrivia
        let indentation = Trivia(
            pieces: leading.pieces.reversed().prefix { piece in
                if case .newlines = piece { return false }
                return true
            }.reversed())
        var fixed = function.with(\.leadingTrivia, [])
        let placed = attribute.with(\.leadingTrivia, leading).with(\.trailingTrivia, Trivia.newline + indentation)
        fixed.attributes.insert(.attribute(placed), at: fixed.attributes.startIndex)
        return fixed
    }

    private mutating func readMethod(_ attribute: AttributeSyntax) -> (method: String, path: String)? {
        let method: String
        let pathExpression: ExprSyntax?
        switch attribute.name {
        case "HTTP":
            method = attribute.stringArgument("method") ?? ""
            pathExpression = attribute.argument(nil)
        case "Http":
            method = attribute.stringArgument("method") ?? ""
            pathExpression = attribute.argument("path")
        default:
            method = attribute.name
            pathExpression = attribute.argument(nil)
        }
        guard let pathExpression else { return (method, "") }
        guard let path = pathExpression.stringLiteralValue else {
            diagnostics.append(
                Diagnostic(node: pathExpression, message: APIDiagnostic.pathNotLiteral(attribute: attribute.name)))
            return nil
        }
        return (method, path)
    }

    /// The `{name}` and `:name` placeholders of the path before its query.
    static func placeholders(in path: String) -> [String] {
        let route =
            path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        var names: [String] = []
        var index = route.startIndex
        while index < route.endIndex {
            let character = route[index]
            if character == "{", let close = route[index...].firstIndex(of: "}") {
                names.append(String(route[route.index(after: index)..<close]))
                index = route.index(after: close)
                continue
            }
            if character == ":", index == route.startIndex || route[route.index(before: index)] == "/" {
                let start = route.index(after: index)
                let end = route[start...].firstIndex { !($0.isLetter || $0.isNumber || $0 == "_") } ?? route.endIndex
                if start < end { names.append(String(route[start..<end])) }
                index = end
                continue
            }
            index = route.index(after: index)
        }
        return names
    }

    // MARK: Effects and completion handlers

    private mutating func checkEffects() -> Bool {
        let effects = function.signature.effectSpecifiers
        guard effects?.asyncSpecifier == nil || effects?.throwsClause == nil else { return true }
        var fixed = function.signature
        fixed.effectSpecifiers = FunctionEffectSpecifiersSyntax(
            asyncSpecifier: .keyword(.async, leadingTrivia: .space),
            throwsClause: ThrowsClauseSyntax(throwsSpecifier: .keyword(.throws, leadingTrivia: .space))
        )
        if fixed.returnClause == nil {
            fixed.parameterClause.rightParen.trailingTrivia = []
        } else {
            fixed.parameterClause.rightParen.trailingTrivia = []
            fixed.effectSpecifiers?.throwsClause?.throwsSpecifier.trailingTrivia = .space
        }
        diagnostics.append(
            Diagnostic(
                node: function.name,
                message: APIDiagnostic.missingAsyncThrows(function: name),
                fixIt: FixIt(
                    message: APIFixIt(message: "make '\(name)' async throws"),
                    changes: [.replace(oldNode: Syntax(function.signature), newNode: Syntax(fixed))])
            ))
        return false
    }

    private mutating func readCompletion(
        _ parameters: inout [FunctionParameterSyntax]
    ) -> (completion: Completion, value: TypeSyntax?)? {
        guard let last = parameters.last, let closure = last.type.withoutAttributes.as(FunctionTypeSyntax.self) else {
            return nil
        }
        let parameterName = (last.secondName ?? last.firstName).text
        var kind: Completion.Kind?
        var value: TypeSyntax?
        if closure.parameters.count == 1, closure.returnClause.type.isVoid,
            let argument = closure.parameters.first?.type
        {
            if let nominal = argument.nominal, nominal.name == "Result", nominal.arguments.count == 2 {
                kind = .result
                value = nominal.arguments[0]
            } else if argument.trimmedDescription == "Response" {
                kind = .response
            }
        }
        guard let kind else {
            let suggested = function.signature.returnClause?.type.trimmedDescription ?? "Void"
            let replacement = TypeSyntax("@escaping (Result<\(raw: suggested), any Error>) -> Void")
            diagnostics.append(
                Diagnostic(
                    node: last.type,
                    message: APIDiagnostic.completionShape(parameter: parameterName),
                    fixIt: FixIt(
                        message: APIFixIt(message: "use '@escaping (Result<\(suggested), any Error>) -> Void'"),
                        changes: [
                            .replace(
                                oldNode: Syntax(last.type),
                                newNode: Syntax(
                                    replacement.with(\.leadingTrivia, last.type.leadingTrivia).with(
                                        \.trailingTrivia, last.type.trailingTrivia)))
                        ])
                ))
            parameters.removeLast()
            return (Completion(parameterName: parameterName, kind: .result, returnsTask: false), nil)
        }
        parameters.removeLast()
        let returnType = function.signature.returnClause?.type
        let returnsTask = returnType?.trimmedDescription.filter { $0 != " " } == "Task<Void,Never>"
        if function.signature.effectSpecifiers != nil || (returnType != nil && !returnsTask) {
            var fixed = function.signature
            fixed.effectSpecifiers = nil
            fixed.returnClause = nil
            fixed.parameterClause.rightParen.trailingTrivia = []
            diagnostics.append(
                Diagnostic(
                    node: function.name,
                    message: APIDiagnostic.completionWithResult(function: name),
                    fixIt: FixIt(
                        message: APIFixIt(message: "remove 'async', 'throws' and the return type"),
                        changes: [.replace(oldNode: Syntax(function.signature), newNode: Syntax(fixed))])
                ))
        }
        return (Completion(parameterName: parameterName, kind: kind, returnsTask: returnsTask), value)
    }
}
