import Foundation
import TestProcesses
import Testing

/// The Swift fuzz targets (Fuzz/Targets), which an ordinary build makes into corpus replayers,
/// run over their committed corpus: the seeds, and every input that once found a bug, so a fixed
/// bug stays fixed without a fuzzing build. A target traps on a broken property, which fails its run.
@Suite struct FuzzCorpusReplayTests {
    @Test(arguments: [
        "fuzz-event-stream", "fuzz-response-head", "fuzz-uri-reference", "fuzz-header-field",
        "fuzz-form-encoder", "fuzz-request-item",
    ])
    func everyCommittedInputRunsCleanThroughItsTarget(_ target: String) async throws {
        let repository = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let buildDirectory = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            .deletingLastPathComponent()
        let corpus = repository.appendingPathComponent("Fuzz/Corpus/\(target)")
        let inputs = try FileManager.default.contentsOfDirectory(atPath: corpus.path).filter { !$0.hasPrefix(".") }
        #expect(!inputs.isEmpty, "\(target) has no committed corpus")

        let outcome = try await ChildProcess.run(
            buildDirectory.appendingPathComponent(target).path, [corpus.path],
            environment: ["SWIFT_BACKTRACE": "enable=no"], timeout: .seconds(120))
        #expect(outcome.status == 0, "\(outcome)")
        #expect(outcome.errorOutput.contains("replayed \(inputs.count) inputs"), "\(outcome)")
    }
}
