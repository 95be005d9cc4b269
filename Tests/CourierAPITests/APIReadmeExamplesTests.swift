// swift-format-ignore-file
// Holds `// README:` regions that ReadmeTies compares with the documentation line for line, so the
// formatter leaves it as written (scripts/lint).
import APIReadmeExamples
import CourierAPI
import CourierTestServer
import Foundation
import ReadmeBlocks
import Testing

/// The examples of the DocC article "Describing an API" are the code compiled in `Examples/APIReadmeExamples`.
@Suite("Documentation: Describing an API")
struct APIReadmeExamplesTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func everySnippetAppearsInADocumentAsCompiled() throws {
        let documents = try DocumentationSet.paths(repository: Self.root).map {
            try String(contentsOf: Self.root.appendingPathComponent($0), encoding: .utf8)
        }
        let source = try String(contentsOf: Self.root.appendingPathComponent("Examples/APIReadmeExamples/APIReadmeExamples.swift"),
                                encoding: .utf8)
        let snippets = SnippetRegions.snippets(in: source)
        #expect(snippets.map(\.name) == ["api-struct", "api-protocol", "api-usage", "api-mock"])
        for snippet in snippets {
            #expect(documents.contains { $0.contains("```swift\n" + snippet.code + "\n```") },
                    "no document of the documentation set shows the \(snippet.name) example as compiled")
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
}
