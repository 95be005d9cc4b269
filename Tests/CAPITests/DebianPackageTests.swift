import CourierTestServer
import Foundation
import Testing
import TestProcesses

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
        #expect(files.contains("\(libdir)/courier/libswiftCore.so"))
        #expect(files.contains("\(libdir)/courier/libFoundationEssentials.so"))
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

    @Test func theDevelopmentPackageHoldsHeadersPkgConfigAndTheUnversionedLink() async throws {
        let packages = try self.packages
        let fields = try await packages.fields(of: "libcourier-dev")
        #expect(fields["Depends"] == "libcourier1 (= \(packages.version))")
        #expect(fields["Section"] == "libdevel")
        let files = try await packages.contents(of: "libcourier-dev")
        let libdir = "./usr/lib/\(packages.multiarch)"
        for file in ["./usr/include/courier.h", "./usr/include/courier_plugin.h",
                     "./usr/include/courier/module.modulemap", "\(libdir)/pkgconfig/courier.pc",
                     "\(libdir)/libcourier.so -> libcourier.so.1"] {
            #expect(files.contains(file), "\(file) in \(files)")
        }
    }

    @Test func theToolPackageDependsOnTheLibraryWhoseRuntimeItUses() async throws {
        let packages = try self.packages
        let fields = try await packages.fields(of: "courier")
        let depends = try #require(fields["Depends"])
        #expect(depends.hasPrefix("libcourier1 (= \(packages.version)), "), "\(depends)")
        #expect(depends.contains("libc6 (>= "), "\(depends)")
        #expect(try await packages.contents(of: "courier").contains("./usr/bin/courier"))
        let dynamic = try await ChildProcess.run("readelf", ["-d", packages.root.appendingPathComponent("usr/bin/courier").path])
        #expect(dynamic.output.contains("Library runpath: [$ORIGIN/../lib/\(packages.multiarch)/courier]"), "\(dynamic)")
    }

    @Test func theDebianDependenciesAreSatisfiedOnThisMachine() async throws {
        let packages = try self.packages
        for package in ["libcourier1", "courier"] {
            let depends = try #require(try await packages.fields(of: package)["Depends"])
            let onDebian = depends.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.hasPrefix("libcourier1 ") }.joined(separator: ", ")
            // dpkg-checkbuilddeps checks any dependency list against the installed packages, read-only.
            let check = try await ChildProcess.run("dpkg-checkbuilddeps", ["-d", onDebian, "/dev/null"],
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
                "unshare", ["-m", "sh", script, packages.root.path, toolchain, packages.empty.path,
                            packages.scratch.path, server.baseURL.absoluteString, artifacts.repository.path, swiftPlugin],
                mergingErrorIntoOutput: true, timeout: .seconds(180))
        }
        #expect(outcome.status == 0, "\(outcome)")
        #expect(outcome.output.hasPrefix("toolchain entries: 0\n"), "the toolchain was hidden: \(outcome)")
        #expect(!outcome.output.contains("not found"), "\(outcome)")
        #expect(!outcome.output.contains(toolchain + "/"), "nothing resolves into the toolchain: \(outcome)")
        let privateRuntime = "/usr/lib/\(packages.multiarch)/courier/libswiftCore.so"
        #expect(outcome.output.contains("libswiftCore.so => \(privateRuntime)"), "\(outcome)")

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
        #expect(mapped.count == 3, "\(outcome)")
        #expect(mapped.contains { $0.hasSuffix("/lib/\(packages.multiarch)/courier/libswiftCore.so") }, "\(outcome)")
        #expect(mapped.contains { $0.hasSuffix("/lib/\(packages.multiarch)/libcourier.so.1") }, "\(outcome)")
        #expect(python.contains("[\"X-From\",\"python\"]"), "\(outcome)")
    }
}

/// Builds the packages once for the whole suite (from the debug build `swift test` made), and
/// removes them and the root they were installed in after its last test.
struct DebianPackagesScope: SuiteTrait, TestScoping {
    /// The packages, while the suite runs.
    @TaskLocal static var packages: BuiltPackages?

    func provideScope(for test: Test, testCase: Test.Case?,
                      performing function: @concurrent @Sendable () async throws -> Void) async throws {
        let packages = try await BuiltPackages.make()
        defer { try? FileManager.default.removeItem(at: packages.scratch) }
        try await Self.$packages.withValue(packages) { try await function() }
    }
}

extension Trait where Self == DebianPackagesScope {
    /// Builds and installs the Debian packages around the suite.
    static var debianPackages: Self { Self() }
}

/// The three packages of one `scripts/package-deb.sh` run, and a throwaway root they are
/// installed in with `dpkg --root` (its own, empty, package database: the real one is untouched).
struct BuiltPackages: Sendable {
    /// The directory of this suite's files, in the build directory.
    let scratch: URL
    /// The root dpkg installed the packages into.
    let root: URL
    /// An empty directory to mount over the toolchain.
    let empty: URL
    /// The .deb files by package name.
    let debs: [String: URL]
    /// The packages' version, the library's own.
    let version: String
    /// Debian's multiarch triplet, such as x86_64-linux-gnu.
    let multiarch: String

    static func make() async throws -> BuiltPackages {
        let artifacts = try await CAPIArtifacts.shared.value
        let scratch = artifacts.buildDirectory.appendingPathComponent("deb-tests")
        try? FileManager.default.removeItem(at: scratch)
        let output = scratch.appendingPathComponent("debs")
        let root = scratch.appendingPathComponent("root")
        let empty = scratch.appendingPathComponent("empty")
        let admin = root.appendingPathComponent("var/lib/dpkg")
        for directory in [output, empty, admin.appendingPathComponent("info"), admin.appendingPathComponent("updates")] {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        }
        try Data().write(to: admin.appendingPathComponent("status"))

        let script = artifacts.repository.appendingPathComponent("scripts/package-deb.sh").path
        let build = try await ChildProcess.run(
            script, ["debug", output.path],
            environment: ["COURIER_BUILD_DIR": artifacts.buildDirectory.path, "DPKG_DEB_COMPRESSOR_TYPE": "none"],
            mergingErrorIntoOutput: true)
        guard build.status == 0 else { throw CAPISetupError(description: "\(build)") }
        var debs: [String: URL] = [:]
        for file in try FileManager.default.contentsOfDirectory(atPath: output.path) where file.hasSuffix(".deb") {
            debs[String(file.prefix { $0 != "_" })] = output.appendingPathComponent(file)
        }
        guard debs.count == 3, let library = debs["libcourier1"] else {
            throw CAPISetupError(description: "expected three packages: \(build)")
        }
        let fields = try await Self.fields(of: library)
        let multiarch = try await ChildProcess.run("dpkg-architecture", ["-qDEB_HOST_MULTIARCH"])

        // Dependencies on Debian's libraries are forced: the throwaway database knows no package.
        let install = try await ChildProcess.run(
            "dpkg", ["--root=\(root.path)", "--log=/dev/null", "--force-depends", "--install"] + debs.values.map(\.path),
            mergingErrorIntoOutput: true)
        guard install.status == 0 else { throw CAPISetupError(description: "\(install)") }
        return BuiltPackages(scratch: scratch, root: root, empty: empty, debs: debs, version: fields["Version"] ?? "",
                             multiarch: multiarch.output.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// The control fields of package `name`.
    func fields(of name: String) async throws -> [String: String] {
        try await Self.fields(of: try #require(debs[name]))
    }

    /// The control fields of `deb` (continuation lines of a multi-line field are left out).
    static func fields(of deb: URL) async throws -> [String: String] {
        let control = try await ChildProcess.run("dpkg-deb", ["--field", deb.path])
        var fields: [String: String] = [:]
        for line in control.output.split(separator: "\n") where !line.hasPrefix(" ") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return fields
    }

    /// The paths in package `name`, symbolic links as `path -> target`.
    func contents(of name: String) async throws -> [String] {
        let listing = try await ChildProcess.run("dpkg-deb", ["--contents", try #require(debs[name]).path])
        // Each line is "mode owner/group size date time path"; the path is the rest after the 5th field.
        return listing.output.split(separator: "\n").map { line in
            line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true).last.map(String.init) ?? ""
        }
    }

    /// The control-area file `file` (shlibs, symbols…) of package `name`.
    func controlFile(_ file: String, of name: String) async throws -> String {
        try await ChildProcess.run("dpkg-deb", ["--info", try #require(debs[name]).path, file]).output
    }

    /// Builds Examples/plugins/swift_stamp as the README tells a Swift plugin author to: against
    /// the installed headers and module map, with no RUNPATH into the toolchain but one into the
    /// library's private runtime. Returns its path.
    func buildSwiftPlugin(from repository: URL) async throws -> String {
        let source = repository.appendingPathComponent("Examples/plugins/swift_stamp")
        let include = root.appendingPathComponent("usr/include")
        let object = scratch.appendingPathComponent("swift_stamp_info.o").path
        let plugin = scratch.appendingPathComponent("swift_stamp.so").path
        let info = try await ChildProcess.run(
            "cc", ["-std=c99", "-fPIC", "-fvisibility=hidden", "-I\(include.path)", "-c", "-o", object,
                   source.appendingPathComponent("info.c").path], mergingErrorIntoOutput: true)
        guard info.status == 0 else { throw CAPISetupError(description: "\(info)") }
        let swift = try await ChildProcess.run(
            "swiftc", ["-swift-version", "6", "-O", "-emit-library", "-module-name", "SwiftStamp",
                       "-module-cache-path", scratch.appendingPathComponent("module-cache").path,
                       "-I", include.appendingPathComponent("courier").path, "-no-toolchain-stdlib-rpath",
                       "-Xlinker", "-rpath=/usr/lib/\(multiarch)/courier",
                       "-o", plugin, source.appendingPathComponent("SwiftStamp.swift").path, object],
            mergingErrorIntoOutput: true)
        guard swift.status == 0 else { throw CAPISetupError(description: "\(swift)") }
        return plugin
    }
}
