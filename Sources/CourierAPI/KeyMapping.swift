import Foundation

/// How an endpoint writes query, field and body keys and reads response keys: `@KeyMapping(.snakeCase)`.
///
/// Applies to the default JSON coders and form encoder; a custom coder from `@JSON(encoder:)` keeps
/// its own key strategy, since changing a shared coder would change every other user of it.
public enum KeyMapping: Sendable {
    /// Keys as declared.
    case useDefaultKeys
    /// `userID` is sent as `user_id`; `user_id` in a response decodes into `userID`.
    case snakeCase
    /// Keys sent as `to` returns them; response keys read as `from` returns them (Papyrus's `.custom`).
    case custom(to: @Sendable (String) -> String, from: @Sendable (String) -> String)

    /// The key as it is sent.
    public func encode(_ key: String) -> String {
        switch self {
        case .useDefaultKeys: key
        case .snakeCase: Self.snakeCased(key)
        case .custom(let to, _): to(key)
        }
    }

    /// Foundation's `convertToSnakeCase`: a word starts at a capital after a lowercase letter, and
    /// before the last capital of a run that a lowercase letter follows (`myURLValue` is `my_url_value`).
    static func snakeCased(_ key: String) -> String {
        let characters = Array(key)
        var result = ""
        for (index, character) in characters.enumerated() {
            if character.isUppercase, index > 0 {
                let previous = characters[index - 1]
                let nextIsLower = index + 1 < characters.count && characters[index + 1].isLowercase
                if previous.isLowercase || previous.isNumber || (previous.isUppercase && nextIsLower) {
                    result.append("_")
                }
            }
            result.append(contentsOf: character.lowercased())
        }
        return result
    }
}
