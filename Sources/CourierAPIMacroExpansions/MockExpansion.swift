import SwiftDiagnostics
public import SwiftSyntax
import SwiftSyntaxBuilder
public import SwiftSyntaxMacros

/// `@Mock`: a `<Protocol>Mock` class answering each endpoint with a closure set by `mock<Endpoint> { … }`.
public struct MockExpansion: PeerMacro {
    static let wrapperTypes: Set<String> = ["Path", "Query", "Header", "Body", "Field", "Part"]

    public static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let protocolDecl = declaration.as(ProtocolDeclSyntax.self) else {
            context.diagnose(Diagnostic(node: node, message: APIDiagnostic.mockOnOtherDeclaration))
            return []
        }
        let access = protocolDecl.modifiers.accessLevel.map { "\($0) " } ?? ""
        var members: [String] = []
        for member in protocolDecl.memberBlock.members {
            guard let function = member.decl.as(FunctionDeclSyntax.self) else { continue }
            members.append(contentsOf: mockMembers(function, access: access))
        }
        let name = protocolDecl.name.text
        let source = """
            /// `\(name)` answered by closures: set one per endpoint with its `mock…` function.
            \(access)final class \(name)Mock: \(name), Sendable {
                /// The closures set so far.
                \(access)let mocks = MockRegistry()

                /// A mock with no endpoint mocked yet.
                \(access)init() {}
            \((members.isEmpty ? "" : "\n") + members.map { $0.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }.joined(separator: "\n") }.joined(separator: "\n\n"))
            }
            """
        return [DeclSyntax("\(raw: source)")]
    }

    static func mockMembers(_ function: FunctionDeclSyntax, access: String) -> [String] {
        var parameters = Array(function.signature.parameterClause.parameters)
        var completion: (name: String, valueType: String?)?
        var returnsTask = false
        if let last = parameters.last, let closure = last.type.withoutAttributes.as(FunctionTypeSyntax.self),
            let argument = closure.parameters.first?.type
        {
            parameters.removeLast()
            let valueType: String? =
                if let nominal = argument.nominal, nominal.name == "Result", let value = nominal.arguments.first {
                    value.isVoid ? "Void" : value.trimmedDescription
                } else {
                    nil
                }
            completion = ((last.secondName ?? last.firstName).text, valueType)
            returnsTask = function.signature.returnClause != nil
        }
        var types: [String] = []
        var arguments: [String] = []
        for parameter in parameters {
            let name = (parameter.secondName ?? parameter.firstName).text
            if let nominal = parameter.type.nominal, wrapperTypes.contains(nominal.name), nominal.arguments.count == 1 {
                types.append(nominal.arguments[0].trimmedDescription)
                arguments.append("\(name).wrappedValue")
            } else {
                types.append(parameter.type.trimmedDescription)
                arguments.append(name)
            }
        }
        let resultType: String =
            if let completion {
                completion.valueType ?? "Response"
            } else {
                function.signature.returnClause?.type.trimmedDescription ?? "Void"
            }
        let handlerType = "@Sendable (\(types.joined(separator: ", "))) async throws -> \(resultType)"
        let endpointName = function.name.text
        let selector =
            "\(endpointName)(\(function.signature.parameterClause.parameters.map { "\($0.firstName.text):" }.joined()))"
        let mockName = "mock" + endpointName.prefix(1).uppercased() + endpointName.dropFirst()
        let lookup = "\(literal(selector)), mockFunction: \(literal(mockName)), as: (\(handlerType)).self"
        let call = "handler(\(arguments.joined(separator: ", ")))"
        var body: [String]
        if let completion {
            let start = returnsTask ? "return " : ""
            let kind = completion.valueType == nil ? "completeResponse" : "complete"
            body = ["\(start)mocks.\(kind)(\(lookup), \(completion.name)) { handler in try await \(call) }"]
        } else {
            body = [
                "let handler = try mocks.handler(\(lookup))",
                "return try await \(call)",
            ]
        }
        let implementation = """
            \(access)func \(APIExpansion.signature(of: function)) {
            \(body.map { "    " + $0 }.joined(separator: "\n"))
            }
            """
        let mock = """
            /// Answers `\(selector)` with `handler` from now on.
            \(access)func \(mockName)(_ handler: @escaping \(handlerType)) {
                mocks.set(\(literal(selector)), handler)
            }
            """
        return [implementation, mock]
    }
}
