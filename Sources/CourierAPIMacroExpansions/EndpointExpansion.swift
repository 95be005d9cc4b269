public import SwiftSyntax
import SwiftSyntaxBuilder
public import SwiftSyntaxMacros

/// `@GET` and the other method attributes: on a struct's function, write its body and a
/// `<name>Request(…)` peer; on a protocol requirement nothing, since `@API` generates the conformance.
public struct EndpointExpansion: BodyMacro, PeerMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingBodyFor declaration: some DeclSyntaxProtocol & WithOptionalCodeBlockSyntax,
        in context: some MacroExpansionContext
    ) throws -> [CodeBlockItemSyntax] {
        guard let function = declaration.as(FunctionDeclSyntax.self), let typeAttributes = typeAttributes(context),
            isFirstMethodAttribute(node, of: function)
        else { return [] }
        var analyzer = EndpointAnalyzer(function: function, typeAttributes: typeAttributes)
        let endpoint = analyzer.analyze()
        analyzer.diagnostics.forEach(context.diagnose)
        guard let endpoint else { return [] }
        let source = EndpointGenerator(endpoint: endpoint).bodyStatements().joined(separator: "\n")
        return Array(CodeBlockItemListSyntax("\(raw: source)"))
    }

    public static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let function = declaration.as(FunctionDeclSyntax.self), let typeAttributes = typeAttributes(context),
            isFirstMethodAttribute(node, of: function)
        else { return [] }
        var analyzer = EndpointAnalyzer(function: function, typeAttributes: typeAttributes)
        guard let endpoint = analyzer.analyze() else { return [] }
        let generator = EndpointGenerator(endpoint: endpoint)
        guard generator.hasRequestFunction else { return [] }
        return [DeclSyntax("\(raw: generator.requestFunction(access: function.modifiers.memberAccessLevel))")]
    }

    /// The attributes of the enclosing type, or `nil` inside a protocol, whose conformance `@API` writes.
    static func typeAttributes(_ context: some MacroExpansionContext) -> [AttributeSyntax]? {
        guard let enclosing = context.lexicalContext.first else { return [] }
        if enclosing.is(ProtocolDeclSyntax.self) { return nil }
        if let type = enclosing.asProtocol((any WithAttributesSyntax).self) { return type.attributes.plain }
        return []
    }

    /// Whether `node` is the function's first method attribute; a second one is diagnosed, not expanded.
    static func isFirstMethodAttribute(_ node: AttributeSyntax, of function: FunctionDeclSyntax) -> Bool {
        let methods = function.attributes.plain.filter { EndpointAnalyzer.methodAttributes.contains($0.name) }
        guard let first = methods.first else { return false }
        return first.trimmedDescription == node.trimmedDescription || methods.count == 1
    }
}
