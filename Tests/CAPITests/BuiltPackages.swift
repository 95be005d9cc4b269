// swift-format-ignore-file
// ReadmeTies finds the documentation's commands in this file as written, so the formatter leaves it
// as written (scripts/lint).
import Foundation
import Testing
import TestProcesses

/// Builds the packages once for the whole suite (from the debug build `swift test` made), and
/// removes them and the root they were installed in after its last test.
struct DebianPackagesScope: SuiteTrait, TestScoping {
    /// The packages, while the suite runs.
    @TaskLocal static var packages: BuiltPackages?

    func provideScope(for test: Test, testCase: Test.Case?,
                      performing function: @concurrent @Sendable () async throws -> Void) async throws {
        let artifacts = try await CAPIArtifacts.shared.value
        let scratch = artifacts.buildDirectory.appendingPathComponent("deb-tests")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let packages = try await BuiltPackages.make(from: artifacts, in: scratch)
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

    /// Builds the packages from the library and tool in `artifacts`' build directory and installs
    /// them, all in `scratch` (emptied first).
    static func make(from artifacts: CAPIArtifacts, in scratch: URL) async throws -> BuiltPackages {
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
            environment: [
                "COURIER_BUILD_DIR": artifacts.buildDirectory.path,
                "COURIER_LIBRARY_BUILD_DIR": try artifacts.staticRuntimeBuildDirectory().path,
                "DPKG_DEB_COMPRESSOR_TYPE": "none",
            ],
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

    /// Builds Examples/plugins/swift_stamp as docs/c.md tells a Swift plugin author to: against
    /// the installed headers and module map, with the Swift runtime linked in and kept private
    /// (`-static-stdlib`, `--exclude-libs=ALL`), so it needs no Swift library. Returns its path.
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
                       "-I", include.appendingPathComponent("courier").path, "-static-stdlib",
                       "-Xlinker", "--exclude-libs=ALL",
                       "-o", plugin, source.appendingPathComponent("SwiftStamp.swift").path, object],
            mergingErrorIntoOutput: true)
        guard swift.status == 0 else { throw CAPISetupError(description: "\(swift)") }
        return plugin
    }
}
