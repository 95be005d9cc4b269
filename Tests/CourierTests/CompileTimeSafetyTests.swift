import Foundation
import TestProcesses
import Testing

/// Pins down that misuse of the builders is a compile-time error, by type-checking snippets
/// against the module just built.
@Suite("Compile-time safety")
struct CompileTimeSafetyTests {
    @Test func validBuilderCodeTypeChecks() async throws {
        let result = try await typeCheck(
            """
            let request = try Request {
                Method.GET
                Headers { AcceptHeader(.json) }
                RequestBody.multipart { MultipartPart.field(name: "a", value: "b") }
            }
            _ = request
            """)
        #expect(result.succeeded, "\(result.diagnostics)")
    }

    /// Each misuse, and the error that names it (a stray value in the request builder is
    /// reported against one of its shorthand forms, `URLQueryItem` since the `String` form is disfavoured).
    @Test(arguments: [
        (
            "a number in a request builder", "_ = try Request { 42 }",
            "cannot convert value of type 'Int' to expected argument type 'URLQueryItem'"
        ),
        (
            "a header name without an edit", "_ = try Request { Header.accept }",
            "cannot convert value of type 'HeaderName' to expected argument type 'URLQueryItem'"
        ),
        (
            "a request block inside Headers", "_ = Headers { Method.POST }",
            "static method 'buildExpression' requires that 'Method' conform to 'HeaderNode'"
        ),
        (
            "a string inside Headers", #"_ = Headers { "X-A: 1" }"#,
            "static method 'buildExpression' requires that 'String' conform to 'HeaderNode'"
        ),
        (
            "a header node outside Headers", "_ = try Request { AcceptHeader(.json) }",
            "cannot convert value of type 'AcceptHeader' to expected argument type 'URLQueryItem'"
        ),
        (
            "a request block inside multipart", "_ = RequestBody.multipart { Method.GET }",
            "cannot convert value of type 'Method' to expected argument type 'MultipartPart'"
        ),
    ])
    func misuseDoesNotCompile(what: String, code: String, diagnostic: String) async throws {
        let result = try await typeCheck(code)
        #expect(!result.succeeded, "\(what) compiled")
        #expect(result.diagnostics.contains("error: \(diagnostic)"), "\(what): \(result.diagnostics)")
    }

    /// `Query("page")` does not compile. `Query` is also CourierAPI's parameter type, which a
    /// string literal can make (`search(term: "swift")`), so Swift reads a lone string literal as
    /// that and asks for the value type; a lone name in a variable meets the deprecation.
    @Test func aQueryWithANameButNoValueDoesNotCompile() async throws {
        let lone = try await typeCheck(#"_ = Query("page")"#)
        #expect(!lone.succeeded, "\(lone.diagnostics)")
        let block = try await typeCheck("let name = \"page\"\n_ = Query(name)")
        #expect(
            block.diagnostics.contains("warning: 'init(_:)' is deprecated: Query needs a name and a value"),
            "\(block.diagnostics)")
    }

    private struct TypeCheckResult {
        var succeeded: Bool
        var diagnostics: String
    }

    /// Runs `swiftc -typecheck` on `code` with `import Courier`, against this build's modules.
    private func typeCheck(_ code: String) async throws -> TypeCheckResult {
        let modules = try modulesDirectory()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("courier-snippet-\(UUID()).swift")
        try ("import Courier\nimport Foundation\n" + code + "\n").write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let outcome = try await ChildProcess.run(
            "swiftc", ["-typecheck", "-swift-version", "6", "-I", modules.path, file.path],
            mergingErrorIntoOutput: true)
        return TypeCheckResult(succeeded: outcome.status == 0, diagnostics: outcome.output)
    }

    /// The `Modules` folder next to the running test bundle (`.build/<triple>/debug/Modules`).
    private func modulesDirectory() throws -> URL {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        for _ in 0..<4 {
            directory.deleteLastPathComponent()
            let candidate = directory.appendingPathComponent("Modules")
            if FileManager.default.fileExists(atPath: candidate.appendingPathComponent("Courier.swiftmodule").path) {
                return candidate
            }
        }
        throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "Modules next to \(CommandLine.arguments[0])"])
    }
}
