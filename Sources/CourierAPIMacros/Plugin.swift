import SwiftCompilerPlugin
import SwiftSyntaxMacros

@main
struct CourierAPIMacrosPlugin: CompilerPlugin {
    let providingMacros: [any Macro.Type] = [
        APIMacro.self,
        MockMacro.self,
        EndpointMacro.self,
        OptionMacro.self,
    ]
}
