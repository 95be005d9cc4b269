import CourierAPIMacroExpansions
import SwiftCompilerPlugin
import SwiftSyntaxMacros

/// The compiler plugin behind `CourierAPI`'s macros.
///
/// The compiler asks for a macro by module and type name (`#externalMacro(module:
/// "CourierAPIMacros", type: "APIMacro")`), so the types listed here live in this module; each
/// hands its expansions to `CourierAPIMacroExpansions`, a plain library. The expansion tests link
/// that library: a test target depending on a macro target is built for the host, and with it
/// every module the tests use, a second time beside the build everything else gets.
@main
struct CourierAPIMacrosPlugin: CompilerPlugin {
    let providingMacros: [any Macro.Type] = [
        APIMacro.self,
        MockMacro.self,
        EndpointMacro.self,
        OptionMacro.self,
    ]
}
