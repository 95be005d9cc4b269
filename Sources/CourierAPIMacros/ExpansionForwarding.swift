import CourierAPIMacroExpansions
public import SwiftSyntax
public import SwiftSyntaxMacros

/// `@API`, as `APIExpansion` expands it.
public enum APIMacro: MemberMacro, PeerMacro, ExtensionMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingMembersOf declaration: some DeclGroupSyntax,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        try APIExpansion.expansion(of: node, providingMembersOf: declaration, conformingTo: protocols, in: context)
    }

    public static func expansion(
        of node: AttributeSyntax,
        attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        try APIExpansion.expansion(
            of: node, attachedTo: declaration, providingExtensionsOf: type, conformingTo: protocols, in: context)
    }

    public static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        try APIExpansion.expansion(of: node, providingPeersOf: declaration, in: context)
    }
}

/// `@Mock`, as `MockExpansion` expands it.
public enum MockMacro: PeerMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        try MockExpansion.expansion(of: node, providingPeersOf: declaration, in: context)
    }
}

/// `@GET`, `@POST`… and `@HTTP`, as `EndpointExpansion` expands them.
public enum EndpointMacro: BodyMacro, PeerMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingBodyFor declaration: some DeclSyntaxProtocol & WithOptionalCodeBlockSyntax,
        in context: some MacroExpansionContext
    ) throws -> [CodeBlockItemSyntax] {
        try EndpointExpansion.expansion(of: node, providingBodyFor: declaration, in: context)
    }

    public static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        try EndpointExpansion.expansion(of: node, providingPeersOf: declaration, in: context)
    }
}

/// `@Headers`, `@JSON`, `@Timeout`… (read by the endpoint expansions), as `OptionExpansion`
/// expands them: to nothing.
public enum OptionMacro: PeerMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        try OptionExpansion.expansion(of: node, providingPeersOf: declaration, in: context)
    }
}
