import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder

extension EndpointAnalyzer {
    mutating func readParameters(
        _ syntaxes: [FunctionParameterSyntax], method: String, path: String, isMultipart: Bool
    ) -> [Parameter]? {
        var placeholders = Self.placeholders(in: path)
        var parameters: [Parameter] = []
        var failed = false
        for syntax in syntaxes {
            let label = syntax.firstName.tokenKind == .wildcard ? nil : syntax.firstName.text
            let internalName = (syntax.secondName ?? syntax.firstName).text
            if syntax.type.withoutAttributes.is(FunctionTypeSyntax.self) {
                diagnostics.append(
                    Diagnostic(node: syntax, message: APIDiagnostic.closureParameter(parameter: internalName)))
                failed = true
                continue
            }
            let matchedPlaceholder = placeholders.first { $0 == internalName || $0 == label }
            var role: Parameter.Role?
            var isWrapperType = false
            if let attribute = syntax.attributes.first(named: Self.parameterAttributes) {
                role = roleFromAttribute(
                    attribute, label: label, internalName: internalName, placeholder: matchedPlaceholder)
                if attribute.name == "Part", !isMultipart {
                    diagnostics.append(partWithoutMultipart(attribute, parameter: internalName))
                    failed = true
                }
            } else if let nominal = syntax.type.nominal, Self.parameterAttributes.contains(nominal.name),
                nominal.arguments.count == 1
            {
                isWrapperType = true
                role = roleFromType(
                    nominal.name, label: label, internalName: internalName, placeholder: matchedPlaceholder)
                if nominal.name == "Part", !isMultipart {
                    diagnostics.append(
                        Diagnostic(
                            node: syntax.type, message: APIDiagnostic.partWithoutMultipart(parameter: internalName),
                            fixIt: addMultipartFixIt()))
                    failed = true
                }
            } else if let nominal = syntax.type.nominal, Self.blockTypes.contains(nominal.name) {
                role = .block
            } else if let matchedPlaceholder {
                role = .path(matchedPlaceholder, encoded: false)
            } else if Self.queryMethods.contains(method) {
                if Self.isSimple(syntax.type) {
                    role = .query(label ?? internalName, encoded: false)
                } else {
                    diagnostics.append(noRole(syntax, internalName: internalName, method: method))
                    failed = true
                    continue
                }
            } else if isMultipart {
                role = .part(name: label ?? internalName, filename: nil, mimeType: nil)
            } else if label == nil {
                role = .body
            } else {
                role = .field(label ?? internalName)
            }
            if case .path(let placeholder, _)? = role {
                placeholders.removeAll { $0 == placeholder }
            }
            if let role {
                parameters.append(
                    Parameter(
                        label: label, internalName: internalName, type: syntax.type, role: role,
                        isWrapperType: isWrapperType, syntax: syntax))
            }
        }
        for placeholder in placeholders {
            diagnostics.append(unknownPlaceholder(placeholder))
            failed = true
        }
        return failed ? nil : parameters
    }

    /// Core blocks a parameter may carry per call: progress reporting for uploads and downloads.
    static let blockTypes: Set<String> = ["OnUploadProgress", "OnDownloadProgress"]

    private func roleFromAttribute(
        _ attribute: AttributeSyntax, label: String?, internalName: String, placeholder: String?
    ) -> Parameter.Role {
        let given = attribute.stringArgument(nil)
        let encoded = attribute.argument("encoded")?.trimmedDescription == "true"
        switch attribute.name {
        case "Path": return .path(given ?? placeholder ?? internalName, encoded: encoded)
        case "Query": return .query(given ?? label ?? internalName, encoded: encoded)
        case "Header": return .header(given ?? Self.headerName(label ?? internalName))
        case "HeaderMap": return .headerMap
        case "Body": return .body
        case "Field": return .field(given ?? label ?? internalName)
        default:
            return .part(
                name: attribute.stringArgument("name") ?? label ?? internalName,
                filename: attribute.stringArgument("filename"), mimeType: attribute.stringArgument("mimeType"))
        }
    }

    private func roleFromType(
        _ type: String, label: String?, internalName: String, placeholder: String?
    ) -> Parameter.Role {
        switch type {
        case "Path": return .path(placeholder ?? internalName, encoded: false)
        case "Query": return .query(label ?? internalName, encoded: false)
        case "Header": return .header(Self.headerName(label ?? internalName))
        case "Body": return .body
        case "Field": return .field(label ?? internalName)
        default: return .part(name: label ?? internalName, filename: nil, mimeType: nil)
        }
    }

    /// `customHeader` is sent as `Custom-Header` (Papyrus's Capital-Kebab-Case).
    static func headerName(_ name: String) -> String {
        var words: [String] = []
        var current = ""
        for character in name {
            if character.isUppercase, !current.isEmpty {
                words.append(current)
                current = ""
            }
            if character == "_" || character == "-" {
                if !current.isEmpty { words.append(current) }
                current = ""
                continue
            }
            current.append(character)
        }
        if !current.isEmpty { words.append(current) }
        return words.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: "-")
    }

    /// Whether a type is sent as query items without an annotation: a scalar, an array of scalars,
    /// `[String: String]`, or an optional of those.
    static func isSimple(_ type: TypeSyntax) -> Bool {
        let type = type.withoutAttributes
        if let wrapped = type.optionalWrapped { return isSimple(wrapped) }
        if let array = type.as(ArrayTypeSyntax.self) { return isSimple(array.element) }
        if let dictionary = type.as(DictionaryTypeSyntax.self) {
            return dictionary.key.trimmedDescription == "String" && dictionary.value.trimmedDescription == "String"
        }
        guard let nominal = type.nominal, nominal.arguments.isEmpty else { return false }
        return simpleTypes.contains(nominal.name)
    }

    private func noRole(_ syntax: FunctionParameterSyntax, internalName: String, method: String) -> Diagnostic {
        func marking(_ attribute: String) -> FixIt {
            let marked = syntax.with(
                \.attributes,
                AttributeListSyntax([
                    .attribute(
                        AttributeSyntax(
                            attributeName: IdentifierTypeSyntax(name: .identifier(attribute)), trailingTrivia: .space)
                    )
                ]))
            return FixIt(
                message: APIFixIt(message: "send '\(internalName)' as @\(attribute)"),
                changes: [.replace(oldNode: Syntax(syntax), newNode: Syntax(marked))])
        }
        return Diagnostic(
            node: syntax, message: APIDiagnostic.noRole(parameter: internalName, function: name, method: method),
            fixIts: [marking("Query"), marking("Body")])
    }

    private func partWithoutMultipart(_ attribute: AttributeSyntax, parameter: String) -> Diagnostic {
        Diagnostic(
            node: attribute, message: APIDiagnostic.partWithoutMultipart(parameter: parameter),
            fixIt: addMultipartFixIt())
    }

    private func addMultipartFixIt() -> FixIt {
        let multipart = AttributeSyntax(attributeName: IdentifierTypeSyntax(name: .identifier("Multipart")))
        return FixIt(
            message: APIFixIt(message: "add @Multipart"),
            changes: [.replace(oldNode: Syntax(function), newNode: Syntax(Self.adding(multipart, to: function)))])
    }

    private func unknownPlaceholder(_ placeholder: String) -> Diagnostic {
        var clause = function.signature.parameterClause
        var parameters = Array(clause.parameters)
        if !parameters.isEmpty {
            parameters[parameters.count - 1].trailingComma = .commaToken(trailingTrivia: .space)
        }
        parameters.append(
            FunctionParameterSyntax(
                firstName: .identifier(placeholder), colon: .colonToken(trailingTrivia: .space),
                type: TypeSyntax(IdentifierTypeSyntax(name: .identifier("String")))))
        clause.parameters = FunctionParameterListSyntax(parameters)
        let pathNode = methodAttributes.first.map(Syntax.init) ?? Syntax(function.name)
        return Diagnostic(
            node: pathNode, message: APIDiagnostic.unknownPlaceholder(placeholder: placeholder, function: name),
            fixIt: FixIt(
                message: APIFixIt(message: "add a parameter '\(placeholder): String'"),
                changes: [.replace(oldNode: Syntax(function.signature.parameterClause), newNode: Syntax(clause))]))
    }

    /// At most one body, and never a body beside fields.
    mutating func checkBodies(_ parameters: [Parameter]) -> Bool {
        let bodies = parameters.filter { $0.role == .body }
        if bodies.count > 1 {
            let second = bodies[1]
            var fieldFix = second.syntax
            if second.label == nil {
                fieldFix.firstName = .identifier(second.internalName)
                fieldFix.secondName = nil
            }
            fieldFix.attributes = AttributeListSyntax(
                Array(fieldFix.attributes).filter { element in
                    if case .attribute(let attribute) = element { return attribute.name != "Body" }
                    return true
                })
            diagnostics.append(
                Diagnostic(
                    node: second.syntax,
                    message: APIDiagnostic.twoBodies(
                        function: name, first: bodies[0].internalName, second: second.internalName),
                    fixIt: FixIt(
                        message: APIFixIt(message: "send '\(second.internalName)' as a field"),
                        changes: [.replace(oldNode: Syntax(second.syntax), newNode: Syntax(fieldFix))])
                ))
            return false
        }
        let fields = parameters.filter { if case .field = $0.role { true } else { false } }
        if let body = bodies.first, !fields.isEmpty {
            let changes: [FixIt.Change] = fields.filter { !$0.isWrapperType }.map { field in
                let marked = field.syntax.with(
                    \.attributes,
                    AttributeListSyntax([
                        .attribute(
                            AttributeSyntax(
                                attributeName: IdentifierTypeSyntax(name: .identifier("Query")), trailingTrivia: .space)
                        )
                    ]))
                return .replace(oldNode: Syntax(field.syntax), newNode: Syntax(marked))
            }
            diagnostics.append(
                Diagnostic(
                    node: body.syntax,
                    message: APIDiagnostic.bodyAndFields(
                        function: name, body: body.internalName, fields: fields.map(\.internalName)),
                    fixIts: changes.isEmpty
                        ? [] : [FixIt(message: APIFixIt(message: "send the fields as query items"), changes: changes)]
                ))
            return false
        }
        return true
    }
}
