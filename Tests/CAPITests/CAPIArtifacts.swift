// swift-format-ignore-file
// ReadmeTies finds the documentation's commands in this file as written, so the formatter leaves it
// as written (scripts/lint).
import Foundation

/// Why the C tests cannot run.
struct CAPISetupError: Error, CustomStringConvertible {
    var description: String
}

/// What every C test needs, built once per test process: the C library (with its SONAME link),
/// the example and fixture plugins, and the compiler flags for programs that link the library.
///
/// The programs run against the `CourierCWithAsyncHTTPClient` product,
/// libCourierCWithAsyncHTTPClient.so (SONAME libcourier.so.1): the default library's exports and
/// AsyncHTTPClient's transport too, since the programs send on both transports. The default
/// library, the `CourierC` product (libCourierC.so), is the one checked against the ABI baselines
/// and for what it carries. `swift build` and `swift test` build both next to the test
/// executable. The work directory lives in the build directory too, so runs leave nothing
/// behind elsewhere.
struct CAPIArtifacts: Sendable {
    /// The repository root, found from this source file.
    let repository: URL
    /// The build directory that holds libCourierC.so and the test executable.
    let buildDirectory: URL
    /// libCourierCWithAsyncHTTPClient.so as built: what the programs link.
    let library: URL
    /// libCourierC.so as built: the default library.
    let defaultLibrary: URL
    /// The scratch directory of this run.
    let work: URL
    /// libcourier.so.1 (the SONAME that programs record), a copy of `library` without its DWARF
    /// (valgrind 3.19 cannot read the DWARF 5 that Swift emits and gives up on the whole run),
    /// and libcourier.so pointing to it. Symbols stay, so valgrind's stacks still name functions.
    let libraryDirectory: URL
    /// The example plugins and the fixtures, as .so files.
    let pluginDirectory: URL
    /// valgrind, when installed.
    let valgrind: String?

    /// The artifacts, built by the first test that asks.
    static let shared = Task { try await CAPIArtifacts.make() }

    /// -std=c99 with every warning an error: the header must stay clean for strict C users.
    static let strictC = ["-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic", "-g"]

    var include: String { repository.appendingPathComponent("include").path }
    var cSources: URL { repository.appendingPathComponent("Tests/CAPITests/c") }
    var fixtures: URL { repository.appendingPathComponent("Tests/CAPITests/Fixtures") }
    var examplePlugins: URL { repository.appendingPathComponent("Examples/plugins") }

    /// The build directory of the library with the Swift runtime linked in, what an install
    /// carries: `scripts/build-libcourier.sh --static-runtime`, which scripts/test runs before
    /// `swift test`, builds it in .build/static-runtime.
    func staticRuntimeBuildDirectory() throws -> URL {
        let directory = repository.appendingPathComponent(".build/static-runtime/debug")
        guard FileManager.default.fileExists(atPath: directory.appendingPathComponent("libCourierC.so").path) else {
            throw CAPISetupError(description: """
                \(directory.path)/libCourierC.so is missing: the install and package tests need the library \
                with the Swift runtime linked in; run `scripts/build-libcourier.sh --static-runtime` \
                (scripts/test does, before `swift test`)
                """)
        }
        return directory
    }

    /// Flags that link a program against libcourier.so so it runs without LD_LIBRARY_PATH.
    var linkFlags: [String] {
        ["-L\(libraryDirectory.path)", "-lcourier", "-Wl,-rpath,\(libraryDirectory.path)", "-pthread"]
    }

    private static func make() async throws -> CAPIArtifacts {
        let repository = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let buildDirectory = executable.deletingLastPathComponent()
        let library = buildDirectory.appendingPathComponent("libCourierCWithAsyncHTTPClient.so")
        let defaultLibrary = buildDirectory.appendingPathComponent("libCourierC.so")
        for built in [library, defaultLibrary] where !FileManager.default.fileExists(atPath: built.path) {
            throw CAPISetupError(description: """
                \(built.path) is missing: the C tests need the `CourierC` and `CourierCWithAsyncHTTPClient` \
                products, which `swift test` builds; after `swift build --build-tests --target CAPITests` run \
                `swift build --product CourierC --product CourierCWithAsyncHTTPClient`
                """)
        }
        let work = buildDirectory.appendingPathComponent("capi-tests")
        try? FileManager.default.removeItem(at: work)
        let libraryDirectory = work.appendingPathComponent("lib")
        let pluginDirectory = work.appendingPathComponent("plugins")
        for directory in [libraryDirectory, pluginDirectory, work.appendingPathComponent("bin")] {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        }
        let copy = libraryDirectory.appendingPathComponent("libcourier.so.1")
        let stripped = try await ProcessRunner.run(["objcopy", "--strip-debug", library.path, copy.path])
        guard stripped.status == 0 else { throw CAPISetupError(description: stripped.description) }
        try FileManager.default.createSymbolicLink(
            atPath: libraryDirectory.appendingPathComponent("libcourier.so").path, withDestinationPath: "libcourier.so.1")
        let which = try await ProcessRunner.run(["sh", "-c", "command -v valgrind"])
        let artifacts = CAPIArtifacts(
            repository: repository, buildDirectory: buildDirectory, library: library,
            defaultLibrary: defaultLibrary, work: work,
            libraryDirectory: libraryDirectory, pluginDirectory: pluginDirectory,
            valgrind: which.status == 0 ? which.output.trimmingCharacters(in: .whitespacesAndNewlines) : nil)
        try await artifacts.buildPlugins()
        return artifacts
    }

    /// Builds the example plugins with their Makefile and each fixture with cc.
    private func buildPlugins() async throws {
        try await require(ProcessRunner.run(
            ["make", "--no-print-directory", "-C", examplePlugins.path, "OUT=\(pluginDirectory.path)",
             "INCLUDE=\(include)"]))
        let fixtureSources = try FileManager.default.contentsOfDirectory(atPath: fixtures.path)
            .filter { $0.hasSuffix(".c") }
        for source in fixtureSources {
            let output = pluginDirectory.appendingPathComponent(source.replacingOccurrences(of: ".c", with: ".so"))
            try await require(ProcessRunner.run(
                ["cc"] + Self.strictC + ["-fPIC", "-shared", "-I\(include)", "-o", output.path,
                                         fixtures.appendingPathComponent(source).path]))
        }
    }

    /// AddressSanitizer and UndefinedBehaviorSanitizer in the C program, which then hosts the
    /// (uninstrumented) library: every allocation, the library's included, goes through ASan's
    /// allocator, so a C caller's over-read, use after free or leak is reported.
    static let sanitizers = ["-fsanitize=address,undefined", "-fno-sanitize-recover=undefined", "-fno-omit-frame-pointer"]

    /// Compiles Tests/CAPITests/c/`name`.c into an executable linked with libcourier; `sanitized`
    /// adds ``sanitizers`` and names it `name-sanitized`; `headers` is the directory of the
    /// courier.h to build against (an older ABI's), the current one by default.
    func compileTest(_ name: String, sanitized: Bool = false, headers: String? = nil) async throws -> URL {
        let output = work.appendingPathComponent("bin").appendingPathComponent(sanitized ? "\(name)-sanitized" : name)
        try await require(ProcessRunner.run(
            ["cc"] + Self.strictC + (sanitized ? Self.sanitizers : []) + ["-I\(headers ?? include)"]
                + ["-o", output.path, cSources.appendingPathComponent("\(name).c").path] + linkFlags))
        return output
    }

    /// Runs `program` natively (no valgrind): for a sanitized build, or for more iterations than
    /// valgrind's pace allows. A sanitizer's report fails it (leaks included).
    func runNative(_ program: URL, _ arguments: [String]) async throws -> CommandOutcome {
        try await ProcessRunner.run(
            [program.path] + arguments,
            environment: ["LD_LIBRARY_PATH": libraryDirectory.path,
                          "ASAN_OPTIONS": "detect_leaks=1:abort_on_error=0:exitcode=98",
                          "UBSAN_OPTIONS": "print_stacktrace=1:halt_on_error=1"],
            seconds: 300)
    }

    /// Runs `program` under valgrind memcheck: a memory error or a definite leak fails it with
    /// status 99. Blocks that the Swift runtime and libcurl keep for the process's life are
    /// suppressed by valgrind.supp, and only those. LD_LIBRARY_PATH, which wins over a program's
    /// RUNPATH, makes programs linked against the build directory load the stripped copy too.
    /// valgrind runs at a lower priority (nice 10): it keeps a core busy for a minute, and the
    /// timing-sensitive tests of other suites in the same `swift test` run must not starve.
    func runChecked(_ program: URL, _ arguments: [String]) async throws -> CommandOutcome {
        guard let valgrind else {
            throw CAPISetupError(description: "valgrind is not installed; bash .ci/install installs it")
        }
        let suppressions = repository.appendingPathComponent("Tests/CAPITests/valgrind.supp").path
        return try await ProcessRunner.run(
            ["nice", "-n", "10", valgrind, "--quiet", "--leak-check=full", "--errors-for-leak-kinds=definite",
             "--show-leak-kinds=definite", "--error-exitcode=99", "--suppressions=\(suppressions)",
             "--num-callers=40", program.path] + arguments,
            environment: ["LD_LIBRARY_PATH": libraryDirectory.path])
    }

    /// Throws the command's output unless it exited 0.
    @discardableResult
    func require(_ outcome: CommandOutcome) throws -> CommandOutcome {
        guard outcome.status == 0 else { throw CAPISetupError(description: outcome.description) }
        return outcome
    }
}
