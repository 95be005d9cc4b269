import CourierTestServer
import Foundation
import Testing

/// courier.h's examples, run: each indented example in the header's comments is compiled as the
/// header shows it (a whole program when it has its own `main`, else the body of `main`) and sent
/// to the loopback test server, so the manual a C user reads first cannot drift from the library.
extension CExampleTests {
    /// An example in a header comment: its first line's number and its code without the comment's
    /// ` *     ` margin.
    struct HeaderExample {
        let line: Int
        let code: String

        /// The examples of `header`: runs of lines indented four spaces inside a comment (` *     `),
        /// where a bare ` *` between them is a blank line of the example.
        static func all(in header: URL) throws -> [HeaderExample] {
            let lines = try String(contentsOf: header, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
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
        let examples = try HeaderExample.all(in: URL(fileURLWithPath: artifacts.include).appendingPathComponent("courier.h"))
        #expect(examples.count >= 2, "found \(examples.map(\.line)) in courier.h")
        #expect(examples.contains { $0.code.contains("courier_client_run_completions") }, "the event-loop program is gone")
        try await withTestServer { server in
            for example in examples {
                let code = example.code.replacingOccurrences(of: "127.0.0.1:8080", with: "127.0.0.1:\(server.port)")
                let text = code.contains("\nint main(") ? code : "#include <courier.h>\n#include <stdio.h>\n\nint main(void) {\n"
                    + code.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }.joined(separator: "\n")
                    + "\n    return 0;\n}\n"
                let source = artifacts.work.appendingPathComponent("header_example_\(example.line).c")
                try text.write(to: source, atomically: true, encoding: .utf8)
                let program = artifacts.work.appendingPathComponent("bin/header_example_\(example.line)")
                let compiled = try await ProcessRunner.run(
                    ["cc"] + CAPIArtifacts.strictC + ["-I\(artifacts.include)", "-o", program.path, source.path] + artifacts.linkFlags)
                #expect(compiled.status == 0, "courier.h:\(example.line): the example does not compile: \(compiled)")
                guard compiled.status == 0 else { continue }
                let before = server.receivedRequests.count
                let run = try await artifacts.runNative(program, [])
                #expect(run.status == 0 && run.output.hasPrefix("200"), "courier.h:\(example.line): \(run)")
                #expect(server.receivedRequests.count == before + 1, "courier.h:\(example.line): the example sent no request")
            }
        }
    }
}
