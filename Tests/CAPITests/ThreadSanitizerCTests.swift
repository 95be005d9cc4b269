import CourierTestServer
import Foundation
import Testing

/// Whether this test process is scripts/thread-sanitizer's build, where libcourier is instrumented
/// with ThreadSanitizer (the script sets the variable for the build and for the tests).
enum ThreadSanitizerBuild {
    static let isActive = ProcessInfo.processInfo.environment["COURIER_THREAD_SANITIZER_BUILD"] != nil
}

/// The C programs whose threads meet in the library, built with `-fsanitize=thread` against the
/// ThreadSanitizer build of libcourier: asynchronous sends and cancellation (test_send),
/// interceptors called on the library's threads (test_interceptors), sends racing a free of
/// their client (test_lifecycle), completions handed to the program's own loop (test_event_loop)
/// and sends held back by connection limits (test_limits). Only in scripts/thread-sanitizer's build: elsewhere the library
/// is not instrumented and valgrind and AddressSanitizer check these programs instead.
@Suite(
    .serialized, .enabled(if: ThreadSanitizerBuild.isActive, "needs scripts/thread-sanitizer's instrumented library"))
struct ThreadSanitizerCTests {
    @Test(arguments: ["test_send", "test_interceptors", "test_lifecycle", "test_event_loop", "test_limits"])
    func programsRunWithoutARaceReport(_ name: String) async throws {
        let artifacts = try await CAPIArtifacts.shared.value
        let program = artifacts.work.appendingPathComponent("bin/\(name)-thread-sanitized")
        // The toolchain's clang, whose ThreadSanitizer runtime is the one the Swift library was
        // built with; that runtime intercepts libdispatch, so the toolchain's libdispatch and
        // blocks runtime are linked too.
        let toolchainLibraries = try await toolchainRuntimeDirectory()
        try await artifacts.require(
            ProcessRunner.run(
                ["clang"] + CAPIArtifacts.strictC + [
                    "-fsanitize=thread", "-I\(artifacts.include)", "-o", program.path,
                    artifacts.cSources.appendingPathComponent("\(name).c").path,
                ]
                    + artifacts.linkFlags
                    + ["-L\(toolchainLibraries)", "-ldispatch", "-lBlocksRuntime", "-Wl,-rpath,\(toolchainLibraries)"]))
        let extra = name == "test_lifecycle" ? [artifacts.pluginDirectory.path, "100"] : []
        let outcome = try await withTestServer { server in
            try await ProcessRunner.run(
                [program.path, server.baseURL.absoluteString] + extra,
                environment: [
                    "LD_LIBRARY_PATH": artifacts.libraryDirectory.path,
                    "TSAN_OPTIONS": "halt_on_error=0:exitcode=66:second_deadlock_stack=1:suppressions="
                        + artifacts.repository.appendingPathComponent("Tests/thread-sanitizer.supp").path,
                ],
                seconds: 600)
        }
        #expect(outcome.status == 0, "\(outcome)")
        #expect(outcome.output.contains(" 0 failed"), "\(outcome)")
        #expect(!outcome.output.contains("ThreadSanitizer"), "\(outcome)")
    }

    /// The toolchain's lib/swift/linux, from the `clang` on PATH (the toolchain's own).
    private func toolchainRuntimeDirectory() async throws -> String {
        let which = try await ProcessRunner.run(["sh", "-c", "command -v clang"])
        let clang = URL(fileURLWithPath: which.output.trimmingCharacters(in: .whitespacesAndNewlines))
            .resolvingSymlinksInPath()
        return clang.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("lib/swift/linux").path
    }
}
