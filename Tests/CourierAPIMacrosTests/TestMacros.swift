import CourierAPIMacroExpansions
import SwiftSyntax
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacros

/// Every macro of `CourierAPI`, by the name it is declared with.
let apiMacros: [String: MacroSpec] = {
    var macros: [String: MacroSpec] = [
        "API": MacroSpec(
            type: APIExpansion.self, conformances: [TypeSyntax(IdentifierTypeSyntax(name: .identifier("Sendable")))]),
        "Mock": MacroSpec(type: MockExpansion.self),
    ]
    for method in ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "TRACE", "CONNECT", "HTTP", "Http"] {
        macros[method] = MacroSpec(type: EndpointExpansion.self)
    }
    for option in [
        "Headers", "Authorization", "JSON", "FormUrlEncoded", "URLForm", "Multipart", "KeyMapping",
        "ResponseKeyPath", "EventStreaming", "Timeout", "Retry", "ErrorBody",
    ] {
        macros[option] = MacroSpec(type: OptionExpansion.self)
    }
    return macros
}()
