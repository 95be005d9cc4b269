import SwiftDiagnostics
public import SwiftSyntax
import SwiftSyntaxBuilder
public import SwiftSyntaxMacros

/// `@API`: on a struct, the provider and initialisers its endpoint bodies use; on a protocol, the
/// conforming `<Protocol>API` struct with every endpoint written out.
public struct APIExpansion: MemberMacro, PeerMacro, ExtensionMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingMembersOf declaration: some DeclGroupSyntax,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        if declaration.is(ProtocolDeclSyntax.self) { return [] }
        guard declaration.is(StructDeclSyntax.self) else {
            context.diagnose(Diagnostic(node: node, message: APIDiagnostic.apiOnOtherDeclaration))
            return []
        }
        for member in declaration.memberBlock.members {
            guard let function = member.decl.as(FunctionDeclSyntax.self), function.body == nil else { continue }
            var analyzer = EndpointAnalyzer(function: function, typeAttributes: [])
            if analyzer.methodAttributes.isEmpty {
                _ = analyzer.analyze()
                analyzer.diagnostics.forEach(context.diagnose)
            }
        }
        let access = declaration.modifiers.accessLevel.map { "\($0) " } ?? ""
        return [
            "/// Where requests go and the client they are sent with.\n\(raw: access)let provider: Provider",
            "/// An API on `provider`.\n\(raw: access)init(_ provider: Provider) {\n    self.provider = provider\n}",
            "/// An API on `provider`.\n\(raw: access)init(provider: Provider) {\n    self.provider = provider\n}",
        ]
    }

    public static func expansion(
        of node: AttributeSyntax,
        attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        if let protocolDecl = declaration.as(ProtocolDeclSyntax.self) {
            return try plainValueOverloads(of: protocolDecl, type: type)
        }
        guard declaration.is(StructDeclSyntax.self), !protocols.isEmpty else { return [] }
        return [try ExtensionDeclSyntax("extension \(type.trimmed): Sendable {}")]
    }

    /// For requirements with parameter types such as `Body<Todo>`, overloads taking the plain values,
    /// so call sites pass `todo` as they do with Papyrus, whose parameter types are type aliases.
    static func plainValueOverloads(
        of protocolDecl: ProtocolDeclSyntax, type: some TypeSyntaxProtocol
    ) throws -> [ExtensionDeclSyntax] {
        let access = protocolDecl.modifiers.accessLevel.map { "\($0) " } ?? ""
        var overloads: [String] = []
        for member in protocolDecl.memberBlock.members {
            guard let function = member.decl.as(FunctionDeclSyntax.self), function.genericParameterClause == nil else {
                continue
            }
            var wrapped = false
            var parameters: [String] = []
            var arguments: [String] = []
            for parameter in function.signature.parameterClause.parameters {
                let label = parameter.firstName.text
                let name = (parameter.secondName ?? parameter.firstName).text
                let argumentName = name == "_" ? "value\(arguments.count)" : name
                var declared = parameter.with(\.trailingComma, nil)
                var argument = argumentName
                if let nominal = parameter.type.nominal, MockExpansion.wrapperTypes.contains(nominal.name),
                    nominal.arguments.count == 1
                {
                    wrapped = true
                    declared.type = nominal.arguments[0].with(\.leadingTrivia, []).with(\.trailingTrivia, [])
                    argument = "\(nominal.name)(wrappedValue: \(argumentName))"
                }
                if name == "_" { declared.secondName = .identifier(argumentName) }
                parameters.append(declared.trimmedDescription)
                arguments.append(label == "_" ? argument : "\(label): \(argument)")
            }
            guard wrapped else { continue }
            let effects = function.signature.effectSpecifiers
            let call =
                (effects?.throwsClause != nil ? "try " : "") + (effects?.asyncSpecifier != nil ? "await " : "")
                + "\(function.name.text)(\(arguments.joined(separator: ", ")))"
            var signature = "\(function.name.text)(\(parameters.joined(separator: ", ")))"
            if let effects { signature += " " + effects.trimmedDescription }
            if let returnClause = function.signature.returnClause { signature += " " + returnClause.trimmedDescription }
            let returns = function.signature.returnClause.map { !$0.type.isVoid } ?? false
            overloads.append(
                """
                /// `\(function.name.text)` with plain values for its parameter types.
                \(access)func \(signature) {
                    \(returns ? "return " : "")\(call)
                }
                """)
        }
        guard !overloads.isEmpty else { return [] }
        let body = overloads.map {
            $0.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }.joined(separator: "\n")
        }
        .joined(separator: "\n\n")
        return [try ExtensionDeclSyntax("extension \(type.trimmed) {\n\(raw: body)\n}")]
    }

    public static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let protocolDecl = declaration.as(ProtocolDeclSyntax.self) else { return [] }
        let typeAttributes = protocolDecl.attributes.plain
        let accessLevel = protocolDecl.modifiers.accessLevel
        let access = accessLevel.map { "\($0) " } ?? ""
        var members: [String] = []
        var failed = false
        for member in protocolDecl.memberBlock.members {
            guard let function = member.decl.as(FunctionDeclSyntax.self) else { continue }
            var analyzer = EndpointAnalyzer(function: function, typeAttributes: typeAttributes)
            let endpoint = analyzer.analyze()
            analyzer.diagnostics.forEach(context.diagnose)
            guard let endpoint else {
                failed = true
                continue
            }
            let generator = EndpointGenerator(endpoint: endpoint)
            let body = generator.bodyStatements().map { "    " + $0 }.joined(separator: "\n")
            members.append("\(access)func \(Self.signature(of: function)) {\n\(body)\n}")
            if generator.hasRequestFunction {
                members.append(generator.requestFunction(access: accessLevel))
            }
        }
        guard !failed else { return [] }
        let name = protocolDecl.name.text
        let source = """
            /// `\(name)` on a `Provider`: every endpoint sends its request through the provider's client.
            \(access)struct \(name)API: \(name), Sendable {
                /// Where requests go and the client they are sent with.
                \(access)let provider: Provider

                /// The API on `provider`.
                \(access)init(provider: Provider) {
                    self.provider = provider
                }

                /// The API on `provider`.
                \(access)init(_ provider: Provider) {
                    self.provider = provider
                }
            \((members.isEmpty ? "" : "\n") + members.map { $0.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }.joined(separator: "\n") }.joined(separator: "\n\n"))
            }
            """
        return [DeclSyntax("\(raw: source)")]
    }

    /// `name<…>(…) async throws -> T where …`, as the requirement declares it.
    static func signature(of function: FunctionDeclSyntax) -> String {
        var text = function.name.text
        if let generics = function.genericParameterClause { text += generics.trimmedDescription }
        text += function.signature.trimmedDescription
        if let whereClause = function.genericWhereClause { text += " " + whereClause.trimmedDescription }
        return text
    }
}
