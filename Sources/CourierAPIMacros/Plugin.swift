import SwiftCompilerPlugin
import SwiftSyntaxMacros

@main
struct CourierAPIMacrosPlugin: CompilerPlugin {
    let providingMacros: [any Macro.Type] = []
}
