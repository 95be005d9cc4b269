import CourierTestServer
import Foundation
import TestProcesses
import Testing

/// `scripts/package-deb.sh` makes packages that install like libcurl's: the right control fields
/// and files, dependencies this machine satisfies, and, installed into a throwaway root that a
/// mount namespace lays over /usr, a C program, C and Swift plugins, the `courier` tool and the
/// Python binding that all run with the Swift toolchain hidden.
@Suite(.debianPackages) struct DebianPackageTests {
    /// The packages the suite's scope built.
    var packages: BuiltPackages {
        get throws { try #require(DebianPackagesScope.packages, "the suite's .debianPackages trait builds them") }
    }

    @Test func theLibraryPackageCarriesItsPrivateRuntimeAndDeclaresShlibsAndSymbols() async throws {
        let packages = try self.packages
        let fields = try await packages.fields(of: "libcourier1")
        #expect(fields["Version"] == packages.version)
        #expect(fields["Section"] == "libs")
        #expect(fields["Multi-Arch"] == "same")
        let depends = try #require(fields["Depends"])
        #expect(depends.contains("libc6 (>= "), "\(depends)")
        #expect(depends.contains("libcurl4"), "\(depends)")
        #expect(!depends.contains("swift"), "the Swift runtime is inside the package: \(depends)")

        let files = try await packages.contents(of: "libcourier1")
        let libdir = "./usr/lib/\(packages.multiarch)"
        #expect(files.contains("\(libdir)/libcourier.so.1"))
        // The Swift runtime is inside the library (#40): the package holds the library alone.
        #expect(!files.contains { $0.contains("/courier/") }, "\(files)")
        #expect(files.allSatisfy { $0.hasPrefix("\(libdir)/") || $0 == "./" || "\(libdir)/".hasPrefix($0) }, "\(files)")

        let shlibs = try await packages.controlFile("shlibs", of: "libcourier1")
        #expect(shlibs == "libcourier 1 libcourier1 (>= \(packages.version))\n")
        let symbols = try await packages.controlFile("symbols", of: "libcourier1")
        #expect(symbols.hasPrefix("libcourier.so.1 libcourier1 #MINVER#\n"))
        #expect(symbols.contains(" courier_client_send@COURIER_1 0.1.0\n"))
        // One line per function the library exports, none missing (which would let a program
        // built against a newer library claim to need only an older one).
        let library = packages.root.appendingPathComponent("usr/lib/\(packages.multiarch)/libcourier.so.1").path
        let exports = try await ChildProcess.run("nm", ["-D", "--defined-only", library]).output
            .split(separator: "\n").compactMap { $0.split(separator: " ").last }.filter { $0.hasPrefix("courier_") }
        #expect(exports.count >= 74)
        let listed = symbols.split(separator: "\n").filter { $0.hasPrefix(" courier_") }
        #expect(Set(listed.map { $0.dropFirst().prefix { $0 != "@" } }) == Set(exports.map { $0.prefix { $0 != "@" } }))
        let triggers = try await packages.controlFile("triggers", of: "libcourier1")
        #expect(triggers.contains("activate-noawait ldconfig"))
    }

    @Test func aProgramBuiltAgainstTheLibraryIsGivenItsDependencyByTheSymbolsFile() async throws {
        let packages = try self.packages
        let artifacts = try await CAPIArtifacts.shared.value
        let consumer = packages.scratch.appendingPathComponent("consumer")
        try FileManager.default.createDirectory(
            at: consumer.appendingPathComponent("debian"), withIntermediateDirectories: true)
        try Data("Source: app\n\nPackage: app\nArchitecture: any\n".utf8)
            .write(to: consumer.appendingPathComponent("debian/control"))
        let unpacked = consumer.appendingPathComponent("libcourier1").path
        let extract = try await ChildProcess.run(
            "dpkg-deb", ["--raw-extract", try #require(packages.debs["libcourier1"]).path, unpacked])
        try #require(extract.status == 0, "\(extract)")
        let app = consumer.appendingPathComponent("app").path
        let compile = try await ChildProcess.run(
            "cc",
            [
                "-o", app, artifacts.repository.appendingPathComponent("Examples/c/courier_get.c").path,
                "-I\(packages.root.path)/usr/include", "-L\(packages.root.path)/usr/lib/\(packages.multiarch)",
                "-lcourier",
            ],
            mergingErrorIntoOutput: true)
        try #require(compile.status == 0, "\(compile)")
        // What a Debian package of this program would depend on, read as dpkg-shlibdeps reads it.
        let depends = try await ChildProcess.run("dpkg-shlibdeps", ["-O", "-S\(unpacked)", app], directory: consumer)
        #expect(depends.status == 0, "\(depends)")
        // courier_get calls only ABI 1.0 functions, so the symbols file asks for the release that added them,
        // not this one: a program that calls a 1.1 function would get `>= 0.2.0`.
        #expect(depends.output.contains("libcourier1 (>= 0.1.0)"), "\(depends)")
    }

    @Test func theDevelopmentPackageHoldsHeadersPkgConfigAndTheUnversionedLink() async throws {
        let packages = try self.packages
        let fields = try await packages.fields(of: "libcourier-dev")
        #expect(fields["Depends"] == "libcourier1 (= \(packages.version))")
        #expect(fields["Section"] == "libdevel")
        let files = try await packages.contents(of: "libcourier-dev")
        let libdir = "./usr/lib/\(packages.multiarch)"
        for file in [
            "./usr/include/courier.h", "./usr/include/courier_plugin.h",
            "./usr/include/courier/module.modulemap", "\(libdir)/pkgconfig/courier.pc",
            "\(libdir)/libcourier.so -> libcourier.so.1",
        ] {
            #expect(files.contains(file), "\(file) in \(files)")
        }
    }

    @Test func theToolPackageCarriesItsOwnRuntimeAndNeedsNoLibrary() async throws {
        let packages = try self.packages
        let fields = try await packages.fields(of: "courier")
        let depends = try #require(fields["Depends"])
        // The tool links what it uses of the C ABI (plugin loading) statically: no libcourier1.
        #expect(!depends.contains("libcourier1"), "\(depends)")
        #expect(depends.contains("libc6 (>= "), "\(depends)")
        let tool = try await packages.contents(of: "courier")
        #expect(tool.contains("./usr/bin/courier"))
        for file in [
            "./usr/share/man/man1/courier.1.gz", "./usr/share/bash-completion/completions/courier",
            "./usr/share/zsh/vendor-completions/_courier", "./usr/share/fish/vendor_completions.d/courier.fish",
        ] {
            #expect(tool.contains(file), "\(file)")
        }
        let dynamic = try await ChildProcess.run(
            "readelf", ["-d", packages.root.appendingPathComponent("usr/bin/courier").path])
        let runpath = "$ORIGIN/../lib/\(packages.multiarch)/courier-cli"
        #expect(dynamic.output.contains("Library runpath: [\(runpath)]"), "\(dynamic)")
        #expect(tool.contains("./usr/lib/\(packages.multiarch)/courier-cli/libswiftCore.so"))
        #expect(tool.contains("./usr/lib/\(packages.multiarch)/courier-cli/libFoundation.so"))
    }

    @Test func theDebianDependenciesAreSatisfiedOnThisMachine() async throws {
        let packages = try self.packages
        for package in ["libcourier1", "courier"] {
            let depends = try #require(try await packages.fields(of: package)["Depends"])
            let onDebian = depends.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.hasPrefix("libcourier1 ") }.joined(separator: ", ")
            // dpkg-checkbuilddeps checks any dependency list against the installed packages, read-only.
            let check = try await ChildProcess.run(
                "dpkg-checkbuilddeps", ["-d", onDebian, "/dev/null"],
                mergingErrorIntoOutput: true)
            #expect(check.status == 0, "\(package): \(check)")
        }
    }

    @Test func theInstalledPackagesServeCPluginsTheToolAndPythonWithTheToolchainHidden() async throws {
        let packages = try self.packages
        let artifacts = try await CAPIArtifacts.shared.value
        let toolchain = try await RelocatableInstallTests.toolchainRoot(of: artifacts.library)
        let swiftPlugin = try await packages.buildSwiftPlugin(from: artifacts.repository)
        let script = artifacts.repository.appendingPathComponent("Tests/CAPITests/Packaging/use-installed.sh").path
        let outcome = try await withTestServer { server in
            try await ChildProcess.run(
                "unshare",
                [
                    "-m", "sh", script, packages.root.path, toolchain, packages.empty.path,
                    packages.scratch.path, server.baseURL.absoluteString, artifacts.repository.path, swiftPlugin,
                ],
                mergingErrorIntoOutput: true, timeout: .seconds(180))
        }
        #expect(outcome.status == 0, "\(outcome)")
        #expect(outcome.output.hasPrefix("toolchain entries: 0\n"), "the toolchain was hidden: \(outcome)")
        #expect(!outcome.output.contains("not found"), "\(outcome)")
        #expect(!outcome.output.contains(toolchain + "/"), "nothing resolves into the toolchain: \(outcome)")
        // Only the tool loads a Swift runtime library (its own); the library and the Swift
        // plugin carry theirs inside.
        let toolRuntime = "lib/\(packages.multiarch)/courier-cli/libswiftCore.so"
        #expect(outcome.output.contains(toolRuntime), "\(outcome)")
        #expect(outcome.output.components(separatedBy: "libswiftCore.so =>").count == 2, "\(outcome)")

        let sections = outcome.output.components(separatedBy: "\n== ")
        let c = try #require(sections.first { $0.hasPrefix("C example") })
        #expect(c.contains("HTTP 200"), "\(outcome)")
        #expect(c.contains("[\"X-From\",\"c\"]"), "\(outcome)")
        #expect(c.contains("[\"X-Signature\","), "the C plugin ran: \(outcome)")
        #expect(c.contains("[\"X-Swift-Stamp\",\"installed attempt=1\"]"), "the Swift plugin ran: \(outcome)")
        let tool = try #require(sections.first { $0.hasPrefix("courier tool") })
        #expect(tool.contains("HTTP/1.1 200") && tool.contains("[\"X-From\",\"cli\"]"), "\(outcome)")
        let python = try #require(sections.first { $0.hasPrefix("Python binding") })
        #expect(python.contains("python loaded libcourier.so.1 HTTP 200"), "through the system loader: \(outcome)")
        // The loader may name /usr/lib/MULTIARCH by its merged-/usr alias /lib/MULTIARCH.
        let mapped = try #require(python.split(separator: "\n").first { $0.hasPrefix("mapped ") }).split(separator: " ")
        #expect(mapped.count == 2, "no Swift library but libcourier.so.1: \(outcome)")
        #expect(mapped.contains { $0.hasSuffix("/lib/\(packages.multiarch)/libcourier.so.1") }, "\(outcome)")
        #expect(python.contains("[\"X-From\",\"python\"]"), "\(outcome)")
    }
}
