// swift-format-ignore-file
// Holds `// README:` regions that ReadmeTies compares with the README line for line, so the
// formatter leaves it as written (scripts/lint).
import APIReadmeExamples
import CourierAPI
import CourierTestServer
import Foundation
import Testing

/// The "Describe an API" examples in README.md are the code compiled in `Examples/APIReadmeExamples`.
@Suite("README: Describe an API")
struct APIReadmeExamplesTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func everySnippetIsTheCompiledCode() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let source = try String(contentsOf: Self.root.appendingPathComponent("Examples/APIReadmeExamples/APIReadmeExamples.swift"),
                                encoding: .utf8)
        let snippets = Self.snippets(in: source)
        #expect(snippets.map(\.name) == ["api-struct", "api-protocol", "api-usage", "api-mock"])
        for snippet in snippets {
            #expect(readme.contains("```swift\n" + snippet.code + "\n```"), "README.md lacks the \(snippet.name) example as compiled")
        }
    }

    @Test func theStructExampleSendsAQueryAndItsStaticHeader() throws {
        let request = try APIReadmeExamples.getUserRequest(baseURL: "https://www.example.com")
        #expect(request.url.absoluteString == "https://www.example.com/user?id=ada")
        #expect(request.headerFields[HTTPField.Name("X-Client")!] == "1.2.3")
    }

    @Test func theProtocolExampleSendsItsPathAndAuthorization() throws {
        let request = try APIReadmeExamples.getTodosRequest(baseURL: "https://api.example.com/")
        #expect(request.url.absoluteString == "https://api.example.com/users/joshuawright11/todos")
        #expect(request.headerFields[.authorization] == "Bearer my-token")
    }

    @Test func theStructExampleDecodesTheUser() async throws {
        try await withProvider { _, server in
            let name = try await APIReadmeExamples.fetchUser(baseURL: server.baseURL.absoluteString)
            #expect(name == "Ada")
        }
    }

    @Test func theMockExampleCounts() async throws {
        #expect(try await APIReadmeExamples.countWithMock() == 1)
    }

    /// The blocks between `// README: name` and `// README: end`, dedented.
    static func snippets(in source: String) -> [(name: String, code: String)] {
        var result: [(name: String, code: String)] = []
        var current: (name: String, lines: [Substring])?
        for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed == "// README: end", let block = current {
                let indent = block.lines.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
                    .map { $0.prefix { $0 == " " }.count }.min() ?? 0
                result.append((block.name, block.lines.map { String($0.dropFirst(min(indent, $0.count))) }.joined(separator: "\n")))
                current = nil
            } else if trimmed.hasPrefix("// README: ") {
                current = (String(trimmed.dropFirst("// README: ".count)), [])
            } else if current != nil {
                current?.lines.append(line)
            }
        }
        return result
    }
}
