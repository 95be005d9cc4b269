import SwiftSyntax

extension AttributeSyntax {
    /// The attribute's name without module qualification or generic arguments (`GET`, `Query`).
    var name: String {
        if let identifier = attributeName.as(IdentifierTypeSyntax.self) { return identifier.name.text }
        if let member = attributeName.as(MemberTypeSyntax.self) { return member.name.text }
        return attributeName.trimmedDescription
    }

    /// The attribute's arguments, empty when it has none.
    var labeledArguments: [LabeledExprSyntax] {
        guard case .argumentList(let list)? = arguments else { return [] }
        return Array(list)
    }

    /// The argument with `label`, or the first unlabelled one for `label == nil`.
    func argument(_ label: String?) -> ExprSyntax? {
        labeledArguments.first { $0.label?.text == label }?.expression
    }

    /// A string-literal argument's text, when it is a literal without interpolation.
    func stringArgument(_ label: String?) -> String? {
        argument(label)?.stringLiteralValue
    }
}

extension ExprSyntax {
    /// The text of a string literal without interpolation.
    var stringLiteralValue: String? {
        guard let literal = self.as(StringLiteralExprSyntax.self) else { return nil }
        var text = ""
        for segment in literal.segments {
            guard let piece = segment.as(StringSegmentSyntax.self) else { return nil }
            text += piece.content.text
        }
        return text
    }
}

extension AttributeListSyntax {
    /// The plain attributes (not `#if` blocks).
    var plain: [AttributeSyntax] {
        compactMap { element in
            if case .attribute(let attribute) = element { return attribute }
            return nil
        }
    }

    func first(named names: Set<String>) -> AttributeSyntax? {
        plain.first { names.contains($0.name) }
    }
}

extension DeclModifierListSyntax {
    /// The access modifier as written (`open` read as `public`), for members generated beside a member.
    var memberAccessLevel: String? {
        accessLevel == "fileprivate" && contains { $0.name.text == "private" } ? "private" : accessLevel
    }

    /// The access modifier, for generated declarations that follow the declaration's access level.
    var accessLevel: String? {
        for modifier in self {
            switch modifier.name.tokenKind {
            case .keyword(.public), .keyword(.package), .keyword(.internal), .keyword(.fileprivate), .keyword(.private),
                .keyword(.open):
                // A generated type is a file-scope peer, so `private` there means `fileprivate`,
                // which its members must spell to witness the protocol's requirements.
                switch modifier.name.text {
                case "open": return "public"
                case "private": return "fileprivate"
                default: return modifier.name.text
                }
            default:
                continue
            }
        }
        return nil
    }
}

extension TypeSyntax {
    /// The type without attributes (`@escaping`, `@Sendable`) and specifiers.
    var withoutAttributes: TypeSyntax {
        if let attributed = self.as(AttributedTypeSyntax.self) { return attributed.baseType.withoutAttributes }
        return self
    }

    /// `(Name, generic arguments)` for `Name<…>` or `Name`.
    var nominal: (name: String, arguments: [TypeSyntax])? {
        guard let identifier = self.as(IdentifierTypeSyntax.self) else {
            if let member = self.as(MemberTypeSyntax.self) {
                return (member.name.text, member.genericArgumentClause?.arguments.compactMap(\.typeArgument) ?? [])
            }
            return nil
        }
        return (identifier.name.text, identifier.genericArgumentClause?.arguments.compactMap(\.typeArgument) ?? [])
    }

    /// The wrapped type of `T?` or `Optional<T>`.
    var optionalWrapped: TypeSyntax? {
        if let optional = self.as(OptionalTypeSyntax.self) { return optional.wrappedType }
        if let implicit = self.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) { return implicit.wrappedType }
        if let nominal, nominal.name == "Optional", nominal.arguments.count == 1 { return nominal.arguments[0] }
        return nil
    }

    /// Whether this is `Void` or `()`.
    var isVoid: Bool {
        if let tuple = self.as(TupleTypeSyntax.self) { return tuple.elements.isEmpty }
        return trimmedDescription == "Void" || trimmedDescription == "Swift.Void"
    }
}

extension GenericArgumentSyntax {
    /// The argument as a type (swift-syntax 600 stores a type; later versions an enum of type or expression).
    var typeArgument: TypeSyntax? {
        Syntax(argument).as(TypeSyntax.self)
    }
}
