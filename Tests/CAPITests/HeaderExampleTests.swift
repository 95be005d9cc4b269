import CourierTestServer
import Foundation
import Testing

/// courier.h's examples, run: each indented example in the header's comments is compiled as the
/// header shows it (``CExampleProgram``) and sent to the loopback test server, so the manual a C
/// user reads first cannot drift from the library.
extension CExampleTests {
    /// An example in a header comment: its first line's number and its code without the comment's
    /// ` *     ` margin.
    struct HeaderExample {
        let line: Int
        let code: String

        /// The examples of `header`: runs of lines indented four spaces inside a comment (` *     `),
        /// where a bare ` *` between them is a blank line of the example.
        static func all(in header: URL) throws -> [HeaderExample] {
            let lines = try String(contentsOf: header, encoding: .utf8).split(
                separator: "\n", omittingEmptySubsequences: false)
            var examples: [HeaderExample] = []
            var current: (line: Int, code: [Substring])?
            for (index, line) in lines.enumerated() {
                if line.hasPrefix(" *     ") {
                    if current == nil { current = (index + 1, []) }
                    current?.code.append(line.dropFirst(7))
                } else if line == " *", current != nil {
                    current?.code.append("")
                } else if let finished = current {
                    let code = finished.code.reversed().drop { $0.isEmpty }.reversed()
                    examples.append(HeaderExample(line: finished.line, code: code.joined(separator: "\n") + "\n"))
                    current = nil
                }
            }
            return examples
        }
    }

    @Test func everyCourierHeaderExampleCompilesStrictlyAndSendsItsRequest() async throws {
        let artifacts = try await CAPIArtifacts.shared.value
        let examples = try HeaderExample.all(
            in: URL(fileURLWithPath: artifacts.include).appendingPathComponent("courier.h"))
        #expect(examples.count >= 2, "found \(examples.map(\.line)) in courier.h")
        #expect(
            examples.contains { $0.code.contains("courier_client_run_completions") }, "the event-loop program is gone")
        try await withTestServer { server in
            for example in examples {
                try await CExampleProgram(place: "courier.h:\(example.line)", code: example.code)
                    .compileAndSend(artifacts, to: server, fileName: "header_example_\(example.line)") {
                        $0.hasPrefix("200")
                    }
            }
        }
    }
}
