/// The result builder behind `RequestBody.multipart { … }`: one `MultipartPart` per line.
///
/// Only parts are accepted, so any other value is a compile-time error rather than a part
/// silently left out. `if`, `if let`, `else`, `switch`, `for` and `#available` work.
@resultBuilder
public enum MultipartBuilder {
    public static func buildExpression(_ part: MultipartPart) -> [MultipartPart] { [part] }

    public static func buildBlock(_ parts: [MultipartPart]...) -> [MultipartPart] { parts.flatMap { $0 } }

    public static func buildOptional(_ parts: [MultipartPart]?) -> [MultipartPart] { parts ?? [] }

    public static func buildEither(first parts: [MultipartPart]) -> [MultipartPart] { parts }

    public static func buildEither(second parts: [MultipartPart]) -> [MultipartPart] { parts }

    public static func buildArray(_ parts: [[MultipartPart]]) -> [MultipartPart] { parts.flatMap { $0 } }

    public static func buildLimitedAvailability(_ parts: [MultipartPart]) -> [MultipartPart] { parts }
}
