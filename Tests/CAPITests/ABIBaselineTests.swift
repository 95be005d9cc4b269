import Foundation
import TestProcesses
import Testing

/// The built library against the ABI 1.4 baselines in abi/ (scripts/update-abi-baseline writes
/// them): removing or changing anything fails; adding functions or appending struct fields passes.
/// abidw and abidiff come from abigail-tools, which .ci/install installs; without them it fails.
@Suite struct ABIBaselineTests {
    /// Describes the built library and the headers' types as `abidw` sees them, into a fresh directory.
    private func describeBuild() async throws -> URL {
        let artifacts = try await CAPIArtifacts.shared.value
        let out = artifacts.work.appendingPathComponent("abi-\(UUID())")
        let described = try await ChildProcess.run(
            artifacts.repository.appendingPathComponent("scripts/abi-describe").path,
            [artifacts.defaultLibrary.path, out.path], mergingErrorIntoOutput: true)
        try #require(described.status == 0, "\(described)")
        return out
    }

    @Test func exportedFunctionsAreThoseOfTheBaselineOrMore() async throws {
        let artifacts = try await CAPIArtifacts.shared.value
        let current = try await describeBuild()
        let diff = try await ChildProcess.run(
            "abidiff",
            [
                artifacts.repository.appendingPathComponent("abi/libcourier.so.1.abi").path,
                current.appendingPathComponent("libcourier.so.1.abi").path,
            ])
        // abidiff's status bits: 1 error, 2 usage, 4 a change, 8 an incompatible change (a removal).
        #expect(diff.status & (1 | 2 | 8) == 0, "\(diff.output)")
    }

    @Test func publicTypesChangeOnlyByAppendingFields() async throws {
        let artifacts = try await CAPIArtifacts.shared.value
        let current = try await describeBuild()
        let diff = try await ChildProcess.run(
            "abidiff",
            [
                "--leaf-changes-only", artifacts.repository.appendingPathComponent("abi/courier-types.abi").path,
                current.appendingPathComponent("courier-types.abi").path,
            ])
        #expect(diff.status & (1 | 2) == 0, "\(diff.output)")
        #expect(ABIChangeRule.incompatibilities(in: diff.output) == [], "\(diff.output)")
    }

    @Test func appendingAFieldIsCompatible() {
        let report = """
            'struct courier_client_options' changed:
              type size changed from 448 to 512 (in bits)
              1 data member insertion:
                'int64_t future_field', at offset 448 (in bits)
            """
        #expect(ABIChangeRule.incompatibilities(in: report) == [])
    }

    @Test func changingOrShrinkingAFieldIsIncompatible() {
        let report = """
            'struct courier_client_options' changed:
              type size changed from 448 to 384 (in bits)
              there are data member changes:
                type 'typedef int64_t' of 'courier_client_options::timeout_ms' changed:
            """
        #expect(ABIChangeRule.incompatibilities(in: report).count == 3)
    }

    @Test func insertingAFieldBeforeTheEndIsIncompatible() {
        let report = """
            'struct courier_send_options' changed:
              type size changed from 256 to 320 (in bits)
              1 data member insertion:
                'void* extra', at offset 64 (in bits)
            """
        #expect(ABIChangeRule.incompatibilities(in: report) == ["'void* extra', at offset 64 (in bits)"])
    }
}

/// Reads `abidiff --leaf-changes-only` for what a struct_size-versioned ABI cannot absorb.
///
/// abidiff rates every struct change alike; Courier's structs grow by appending (callers say their
/// size), so a size that grows with members inserted past the old end is compatible and anything
/// else (a changed, removed or moved member, a smaller struct, a removed function) is not.
enum ABIChangeRule {
    static func incompatibilities(in report: String) -> [String] {
        var problems: [String] = []
        var oldSize = Int.max
        for line in report.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            if line.isEmpty || line.hasPrefix("Leaf changes summary") || line.hasPrefix("Changed leaf types summary")
                || line.hasSuffix("changed:") && line.hasPrefix("'struct ") || line.hasSuffix("data member insertion:")
                || line.hasSuffix("data member insertions:")
            {
                if line.hasPrefix("'struct ") { oldSize = Int.max }
                continue
            }
            if line.hasPrefix("Removed/Changed/Added") {
                if !line.contains(": 0 Removed, 0 Changed") { problems.append(line) }
                continue
            }
            if let sizes = line.firstMatch(of: /^type size changed from (\d+) to (\d+) \(in bits\)$/) {
                let (from, to) = (Int(sizes.1) ?? 0, Int(sizes.2) ?? 0)
                if to > from { oldSize = from } else { problems.append(line) }
                continue
            }
            if let insertion = line.firstMatch(of: /^'.*', at offset (\d+) \(in bits\)$/),
                let offset = Int(insertion.1), offset >= oldSize
            {
                continue
            }
            problems.append(line)
        }
        return problems
    }
}
