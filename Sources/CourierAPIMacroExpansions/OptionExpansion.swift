public import SwiftSyntax
public import SwiftSyntaxMacros

/// `@Headers`, `@JSON`, `@KeyMapping` and the other options: they add nothing themselves; the
/// endpoint macros read them from the function and its type.
public struct OptionExpansion: PeerMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        []
    }
}
