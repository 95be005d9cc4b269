import CourierTestServer
import Foundation
import Testing

/// A C example from the documentation (a document of the documentation set, or courier.h), compiled as the reader would
/// compile it and sent to the test server: a whole program when it has its own `main`, otherwise
/// the body of `main`; `127.0.0.1:8080` stands for the test server.
struct CExampleProgram {
    /// Where the example is written, for messages (`docs/c.md:120`).
    let place: String
    let code: String

    /// The example as a C file's text.
    func source(port: Int) -> String {
        let code = code.replacingOccurrences(of: "127.0.0.1:8080", with: "127.0.0.1:\(port)")
        return code.contains("\nint main(")
            ? code
            : "#include <courier.h>\n#include <stdio.h>\n\nint main(void) {\n"
                + code.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }.joined(
                    separator: "\n")
                + "\n    return 0;\n}\n"
    }

    /// Compiles the example with the strict flags, runs it against `server` and records an issue
    /// unless it exits with 0, sent exactly one request, and printed what `expectsOutput` accepts.
    func compileAndSend(
        _ artifacts: CAPIArtifacts, to server: TestServer, fileName: String,
        expectsOutput: (String) -> Bool
    ) async throws {
        let file = artifacts.work.appendingPathComponent("\(fileName).c")
        try source(port: server.port).write(to: file, atomically: true, encoding: .utf8)
        let program = artifacts.work.appendingPathComponent("bin/\(fileName)")
        let compiled = try await ProcessRunner.run(
            ["cc"] + CAPIArtifacts.strictC + ["-I\(artifacts.include)", "-o", program.path, file.path]
                + artifacts.linkFlags)
        #expect(compiled.status == 0, "\(place): the example does not compile: \(compiled)")
        guard compiled.status == 0 else { return }
        let before = server.receivedRequests.count
        let run = try await artifacts.runNative(program, [])
        #expect(run.status == 0 && expectsOutput(run.output), "\(place): \(run)")
        #expect(
            server.receivedRequests.count == before + 1,
            "\(place): the example sent \(server.receivedRequests.count - before) requests, not one")
    }
}
