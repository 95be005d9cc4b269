import Foundation
import Testing

/// The C API's fuzz target (Fuzz/CAPI/fuzz_capi.c) built as a corpus replayer and run over its
/// committed corpus with AddressSanitizer and UndefinedBehaviorSanitizer: the call sequences that
/// once found a bug stay regression tests without a fuzzing build (scripts/fuzz runs the fuzzer).
/// Not under valgrind as well: the C programs already run the library under it, and a replay there
/// costs a minute of CI for little the sanitizers miss.
@Suite struct CAPIFuzzCorpusTests {
    private func sanitizedReplayer(_ artifacts: CAPIArtifacts) async throws -> URL {
        let fuzz = artifacts.repository.appendingPathComponent("Fuzz")
        let output = artifacts.work.appendingPathComponent("bin/fuzz-capi-replay-sanitized")
        try await artifacts.require(
            ProcessRunner.run(
                ["cc"] + CAPIArtifacts.strictC + CAPIArtifacts.sanitizers
                    + [
                        "-I\(artifacts.include)", "-I\(fuzz.path)/Driver/include", "-DCOURIER_FUZZ_DEFINE_MAIN",
                        "-o", output.path, "\(fuzz.path)/CAPI/fuzz_capi.c", "\(fuzz.path)/Driver/courier_fuzz_driver.c",
                    ]
                    + artifacts.linkFlags))
        return output
    }

    @Test func everyCommittedCallSequenceRunsCleanUnderTheSanitizers() async throws {
        let artifacts = try await CAPIArtifacts.shared.value
        let corpus = artifacts.repository.appendingPathComponent("Fuzz/Corpus/fuzz-capi")
        let inputs = try FileManager.default.contentsOfDirectory(atPath: corpus.path).filter { !$0.hasPrefix(".") }
        let outcome = try await artifacts.runNative(try await sanitizedReplayer(artifacts), [corpus.path])
        #expect(outcome.status == 0, "\(outcome)")
        #expect(outcome.output.contains("replayed \(inputs.count) inputs"), "\(outcome)")
        #expect(!outcome.output.contains("Sanitizer"), "\(outcome)")
    }
}
