import Foundation
import ReadmeBlocks

/// The rules that tie each `swift`, `c`, `sh`, `python` and `ruby` block of the documentation
/// (every document of `DocumentationSet`: the README, `docs/c.md`, `docs/cli.md`, the Python and
/// Ruby packages' READMEs, the benchmarks' README and the DocC articles) to code that a test
/// compiles or runs, so no document can show code that no longer works.
///
/// The convention, also stated in README.md's quick start:
/// - Output and illustrations are fenced as `text`, `http` or `console` (or left without a
///   language), or, when they should keep a code language for highlighting, carry the comment
///   `<!-- output -->` (or `<!-- output: what it shows -->`) on the line right before the fence.
///   Those blocks are not checked here; blocks in any other language are not checked either.
/// - A `swift` block is tied when it equals, line for line, a region between `// README: name`
///   and `// README: end` in one of ``swiftSources``, which the build compiles.
/// - Every `c` block is compiled and run by ``cBlockRunner``, every `python` block is run by
///   ``pythonBlockRunner`` and every `ruby` block by ``rubyBlockRunner``: they run all blocks of
///   their language in every document, so a new block is covered.
/// - An `sh` block is tied when a test runs it as a whole (``wholeBlockRunners``), or when every
///   command in it is tied: it runs a program that a command runner runs every documented
///   invocation of (``commandRunners``), or it is one of ``documentedCommands``, each of which
///   names the script or test that runs it (`.ci/install` and `scripts/test` are what `.ci/run`
///   runs) and a text that file must contain, or it runs one of ``syntaxCheckedScripts``, too slow
///   for CI, which the test parses with `bash -n`.
struct ReadmeTies {
    /// Where compiled Swift comes from: directories (every `.swift` file in them) or files, and how each is compiled.
    static let swiftSources: [(path: String, compiledBy: String)] = [
        ("Examples/ReadmeExamples", "the ReadmeExamples target, run by ReadmeExamplesTests"),
        ("Examples/APIReadmeExamples", "the APIReadmeExamples target, run by APIReadmeExamplesTests"),
        ("Examples/MyApp/Package.swift", "`swift package dump-package` in ReadmeManifestTests"),
        ("Tests/CourierOpenAPITests", "the CourierOpenAPITests target, which sends through it to the loopback server"),
    ]
    /// Compiles and runs every `c` block of every document against the loopback test server.
    static let cBlockRunner = "Tests/CAPITests/ReadmeCTests.swift"
    /// Runs every `python` block of every document against `courier serve`.
    static let pythonBlockRunner = "bindings/python/tests/test_readme_blocks.py"
    /// Runs every `ruby` block of every document against `courier serve`.
    static let rubyBlockRunner = "bindings/ruby/test/test_readme_blocks.rb"
    /// Shell blocks a test runs as written, each the first `sh` block under a heading of a document;
    /// the test names the heading, which is how it finds the block.
    static let wholeBlockRunners: [(document: String, heading: String, runner: String)] = [
        ("bindings/python/README.md", "## Quick start", "bindings/python/tests/test_quickstart.py"),
        ("bindings/ruby/README.md", "## Install", "bindings/ruby/test/test_quickstart.rb"),
    ]
    /// Programs whose every documented invocation a test runs: program → the test that runs them.
    static let commandRunners: [String: String] = [
        "courier": "Tests/CourierCLITests/ReadmeCommandTests.swift",
        "courier-examples": "Tests/CourierCLITests/ReadmeCommandTests.swift",
        "Examples/c/courier_get": cBlockRunner,
    ]
    /// Setup and build commands run by a script or test other than a block runner: the exact
    /// command → the file that runs it and texts that file contains (the command as it spells it).
    static let documentedCommands: [String: (file: String, contains: [String])] = [
        ".ci/install": (".ci/run", ["\nbash .ci/install\n"]),
        "scripts/test": (".ci/run", ["\nscripts/test\n"]),
        "scripts/build-libcourier.sh": ("Tests/CAPITests/CExampleTests.swift", ["scripts/build-libcourier.sh"]),
        "make -C Examples/c": (
            "Tests/CAPITests/CExampleTests.swift",
            [#"["make", "#, #""-C", artifacts.repository.appendingPathComponent("Examples/c").path"#]
        ),
        "make -C Examples/plugins": (
            "Tests/CAPITests/CAPIArtifacts.swift",
            [#"["make", "#, #""-C", examplePlugins.path"#, #"appendingPathComponent("Examples/plugins")"#]
        ),
        // The Debian packages: DebianPackageTests builds them with the script (from the debug
        // build), installs them with dpkg into a throwaway root instead of the real system, and
        // builds the C example against them as docs/c.md does.
        "scripts/package-deb.sh release": (
            "Tests/CAPITests/BuiltPackages.swift", [#"appendingPathComponent("scripts/package-deb.sh")"#]
        ),
        "sudo apt install ./.build/deb/libcourier1_0.2.0_amd64.deb ./.build/deb/libcourier-dev_0.2.0_amd64.deb":
            (
                "Tests/CAPITests/BuiltPackages.swift",
                [#""dpkg", ["--root=\(root.path)""#, #""--install"] + debs.values.map(\.path)"#]
            ),
        "cc app.c $(pkg-config --cflags --libs courier)": (
            "Tests/CAPITests/Packaging/use-installed.sh", ["$(pkg-config --cflags --libs courier)"]
        ),
        // A Swift plugin built against the installed headers with its runtime linked in and kept
        // private, as DebianPackageTests builds swift_stamp.
        "cc -std=c99 -fPIC -fvisibility=hidden -c -o info.o Examples/plugins/swift_stamp/info.c":
            (
                "Tests/CAPITests/BuiltPackages.swift",
                [#""cc", ["-std=c99", "-fPIC", "-fvisibility=hidden""#, #"appendingPathComponent("info.c")"#]
            ),
        "swiftc -swift-version 6 -O -emit-library -module-name SwiftStamp -I /usr/include/courier -static-stdlib -Xlinker --exclude-libs=ALL -o swift_stamp.so Examples/plugins/swift_stamp/SwiftStamp.swift info.o":
            (
                "Tests/CAPITests/BuiltPackages.swift",
                [
                    #""swiftc", ["-swift-version", "6", "-O", "-emit-library", "-module-name", "SwiftStamp""#,
                    #"include.appendingPathComponent("courier").path, "-static-stdlib""#,
                    #""-Xlinker", "--exclude-libs=ALL""#,
                ]
            ),
    ]
    /// Scripts the documentation shows that CI cannot afford to run (a release build and minutes of
    /// measuring): the test checks that each exists, is executable and parses. A command runs one
    /// when it is the command's only program (`ROUNDS=3 Benchmarks/run.sh` too).
    static let syntaxCheckedScripts: Set<String> = ["Benchmarks/run.sh"]

    /// The fence languages this check covers.
    static let checkedLanguages = Set(["swift", "c", "python", "ruby"]).union(FencedBlock.shellLanguages)

    let repository: URL
    /// Every marked Swift region of ``swiftSources``.
    let swiftSnippets: [SnippetRegions.Snippet]

    init(repository: URL) throws {
        self.repository = repository
        var snippets: [SnippetRegions.Snippet] = []
        for source in Self.swiftSources {
            let url = repository.appendingPathComponent(source.path)
            var files = [url]
            if url.pathExtension != "swift" {
                files = try FileManager.default.contentsOfDirectory(at: url, includingPropertiesForKeys: nil)
                    .filter { $0.pathExtension == "swift" }.sorted { $0.path < $1.path }
            }
            for file in files {
                snippets += SnippetRegions.snippets(in: try String(contentsOf: file, encoding: .utf8))
            }
        }
        swiftSnippets = snippets
    }

    /// One line per block of `document` that is neither tied nor marked as output: where it is
    /// (`docs/c.md:12`), its first line, and why.
    func failures(in document: MarkdownDocument) -> [String] {
        var seenHeadings: Set<String> = []
        return document.blocks(Self.checkedLanguages).compactMap { block in
            guard !block.isMarkedAsOutput else { return nil }
            let isFirstShellBlockUnderHeading =
                FencedBlock.shellLanguages.contains(block.language)
                && seenHeadings.insert(block.heading).inserted
            let reason = untiedReason(block, document: document.path, firstUnderHeading: isFirstShellBlockUnderHeading)
            guard let reason else { return nil }
            return
                "\(document.place(block.line)): ```\(block.language) block `\(block.firstLine)` is not tied to compiled or "
                + "executed code (\(reason)) nor marked with <!-- output --> before its fence"
        }
    }

    /// Why `block` is untied, or `nil` when it is tied.
    private func untiedReason(_ block: FencedBlock, document: String, firstUnderHeading: Bool) -> String? {
        switch block.language {
        case "swift":
            return swiftSnippets.contains { $0.code == block.code }
                ? nil
                : "no `// README:` region of \(Self.swiftSources.map(\.path).joined(separator: ", ")) equals it"
        case "c":
            return fileExists(Self.cBlockRunner) ? nil : "\(Self.cBlockRunner) is missing"
        case "python":
            return fileExists(Self.pythonBlockRunner) ? nil : "\(Self.pythonBlockRunner) is missing"
        case "ruby":
            return fileExists(Self.rubyBlockRunner) ? nil : "\(Self.rubyBlockRunner) is missing"
        default:
            if firstUnderHeading,
                Self.wholeBlockRunners.contains(where: {
                    $0.document == document && $0.heading == block.heading && contents($0.runner).contains($0.heading)
                })
            {
                return nil
            }
            let untied = block.shellCommands.filter { !isTied($0) }
            return untied.isEmpty
                ? nil
                : "no test or script runs " + untied.map { "line \($0.line): `\($0.text)`" }.joined(separator: ", ")
        }
    }

    /// Whether a test or script runs `command`, by the rules above.
    func isTied(_ command: ShellCommand) -> Bool {
        if command.programs.contains(where: { Self.commandRunners[$0].map(fileExists) ?? false }) { return true }
        if let documented = Self.documentedCommands[command.text] {
            let text = contents(documented.file)
            return documented.contains.allSatisfy(text.contains)
        }
        return command.programs.count == 1 && Self.syntaxCheckedScripts.contains(command.programs[0])
    }

    private func fileExists(_ path: String) -> Bool {
        FileManager.default.fileExists(atPath: repository.appendingPathComponent(path).path)
    }

    private func contents(_ path: String) -> String {
        (try? String(contentsOf: repository.appendingPathComponent(path), encoding: .utf8)) ?? ""
    }
}
