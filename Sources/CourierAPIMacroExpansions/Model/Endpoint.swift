import SwiftSyntax

/// One endpoint as the macros understand it: what its attributes, parameters and return type mean.
struct Endpoint {
    /// The function's name.
    let name: String
    /// The method as sent (`GET`, `LINK`).
    let method: String
    /// The path template as written.
    let path: String
    /// The parameters that go into the request, in declaration order (the completion handler excluded).
    let parameters: [Parameter]
    /// The completion handler, for Papyrus's closure-based endpoints.
    let completion: Completion?
    /// What the function returns, or what its completion handler receives.
    let result: ResultKind
    /// Statements that configure the `APIRequest` from type and method attributes.
    let optionStatements: [String]
}

/// A parameter that goes into the request.
struct Parameter {
    /// The argument label, or `nil` for `_`.
    let label: String?
    /// The name inside the function.
    let internalName: String
    /// The declared type.
    let type: TypeSyntax
    /// Where its value goes.
    let role: Role
    /// Whether it is declared with a parameter type such as `Query<String>` rather than a plain value.
    let isWrapperType: Bool
    /// The declaration, for fix-its and for copying into generated functions.
    let syntax: FunctionParameterSyntax

    enum Role: Equatable {
        case path(String, encoded: Bool)
        case query(String, encoded: Bool)
        case header(String)
        case headerMap
        case body
        case field(String)
        case part(name: String, filename: String?, mimeType: String?)
        /// A core block applied to the request: `OnUploadProgress`, `OnDownloadProgress`.
        case block
    }
}

/// A completion-handler parameter.
struct Completion {
    enum Kind {
        /// `(Result<T, any Error>) -> Void`.
        case result
        /// `(Response) -> Void`.
        case response
    }

    let parameterName: String
    let kind: Kind
    /// Whether the function returns the call's `Task<Void, Never>`, so it can be cancelled.
    let returnsTask: Bool
}

/// What an endpoint returns.
enum ResultKind {
    case void
    case response
    case data
    case optionalData
    case headers
    case decode(String)
    case decodeIfPresent(String)
    case decodeWithResponse(String)
    case tuple(TupleTypeSyntax)
    case events(element: EventElement, throwing: Bool)

    enum EventElement {
        case data
        case event
        case decoded(String)
    }
}
