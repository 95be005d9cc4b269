// swift-format-ignore-file
// ReadmeTies finds the documentation's commands in this file as written, so the formatter leaves it
// as written (scripts/lint).
import CourierTestServer
import Foundation
import Testing

/// The C quick start as a user runs it: scripts/build-libcourier.sh writes courier.pc (and
/// installs into a prefix), Examples/c/Makefile builds courier_get with pkg-config, and
/// courier_get sends a request through a plugin.
@Suite(.serialized)
struct CExampleTests {
    /// Runs scripts/build-libcourier.sh on the library `swift test` built; `prefix` installs the
    /// library with the Swift runtime linked in, which an install requires.
    func writePackageConfig(_ artifacts: CAPIArtifacts, prefix: URL? = nil) async throws {
        let built = try prefix == nil ? artifacts.buildDirectory : artifacts.staticRuntimeBuildDirectory()
        try artifacts.require(await ProcessRunner.run(
            ["bash", artifacts.repository.appendingPathComponent("scripts/build-libcourier.sh").path, "debug"]
                + (prefix.map { [$0.path] } ?? []),
            environment: ["COURIER_BUILD_DIR": built.path]))
    }

    /// Builds courier_get with the Makefile against the courier.pc in `pkgConfigPath`.
    func buildExample(_ artifacts: CAPIArtifacts, pkgConfigPath: URL, into output: URL) async throws -> URL {
        try artifacts.require(await ProcessRunner.run(
            ["make", "--no-print-directory", "-B", "-C", artifacts.repository.appendingPathComponent("Examples/c").path,
             "OUT=\(output.path)", "PKG_CONFIG_PATH=\(pkgConfigPath.path)"]))
        return output.appendingPathComponent("courier_get")
    }

    @Test func courierGetBuildsWithPkgConfigAndSendsThroughAPlugin() async throws {
        let artifacts = try await CAPIArtifacts.shared.value
        try await writePackageConfig(artifacts)
        let pkgConfig = artifacts.buildDirectory.appendingPathComponent("pkgconfig")
        let flags = try artifacts.require(await ProcessRunner.run(
            ["pkg-config", "--cflags", "--libs", "courier"], environment: ["PKG_CONFIG_PATH": pkgConfig.path]))
        #expect(flags.output.contains("-I\(artifacts.include)"))
        #expect(flags.output.contains("-Wl,-rpath,\(artifacts.buildDirectory.path)"))

        let program = try await buildExample(artifacts, pkgConfigPath: pkgConfig,
                                             into: artifacts.work.appendingPathComponent("example"))
        let signer = artifacts.pluginDirectory.appendingPathComponent("hmac_signer.so").path
        let outcome = try await withTestServer { server in
            try await artifacts.runChecked(program, [
                "-H", "X-Example: from C", "-H", "Accept: application/json", "-p", "\(signer)=key",
                server.baseURL.appendingPathComponent("headers").absoluteString,
            ])
        }
        #expect(outcome.status == 0, "\(outcome)")
        #expect(outcome.output.hasPrefix("HTTP 200\n"), "\(outcome)")
        #expect(outcome.output.contains("Content-Type: application/json"), "\(outcome)")
        #expect(outcome.output.contains("[\"X-Example\",\"from C\"]"), "\(outcome)")
        #expect(outcome.output.contains("[\"X-Signature\","), "\(outcome)")
    }

    @Test func courierGetReportsFailuresWithTheirCode() async throws {
        let artifacts = try await CAPIArtifacts.shared.value
        try await writePackageConfig(artifacts)
        let program = try await buildExample(artifacts, pkgConfigPath: artifacts.buildDirectory.appendingPathComponent("pkgconfig"),
                                             into: artifacts.work.appendingPathComponent("example-failures"))
        let refused = try await ProcessRunner.run([program.path, "http://127.0.0.1:1/"])
        #expect(refused.status == 1)
        #expect(refused.output.contains("courier_get: "), "\(refused)")
        let badHeader = try await ProcessRunner.run([program.path, "-H", "no colon", "http://127.0.0.1:1/"])
        #expect(badHeader.status == 1, "\(badHeader)")
        let usage = try await ProcessRunner.run([program.path])
        #expect(usage.status == 2)
    }

    @Test func installedPrefixHasLibraryHeadersAndPackageConfig() async throws {
        let artifacts = try await CAPIArtifacts.shared.value
        let prefix = artifacts.work.appendingPathComponent("prefix")
        try await writePackageConfig(artifacts, prefix: prefix)
        let files = FileManager.default
        for path in ["lib/libcourier.so.1", "lib/libcourier.so", "include/courier.h", "include/courier_plugin.h",
                     "lib/pkgconfig/courier.pc"] {
            #expect(files.fileExists(atPath: prefix.appendingPathComponent(path).path), "\(path) not installed")
        }
        #expect(try files.destinationOfSymbolicLink(atPath: prefix.appendingPathComponent("lib/libcourier.so").path)
            == "libcourier.so.1")
        let program = try await buildExample(artifacts, pkgConfigPath: prefix.appendingPathComponent("lib/pkgconfig"),
                                             into: artifacts.work.appendingPathComponent("example-installed"))
        let linked = try artifacts.require(await ProcessRunner.run(["ldd", program.path]))
        #expect(linked.output.contains("libcourier.so.1 => \(prefix.path)/lib/libcourier.so.1"), "\(linked)")
        let outcome = try await withTestServer { server in
            try await ProcessRunner.run([program.path, server.baseURL.appendingPathComponent("status/204").absoluteString])
        }
        #expect(outcome.status == 0, "\(outcome)")
        #expect(outcome.output.hasPrefix("HTTP 204\n"), "\(outcome)")
    }

    @Test func pluginsDoNotLinkTheLibrary() async throws {
        let artifacts = try await CAPIArtifacts.shared.value
        let plugins = try FileManager.default.contentsOfDirectory(atPath: artifacts.pluginDirectory.path)
            .filter { $0.hasSuffix(".so") }
        #expect(plugins.contains("hmac_signer.so") && plugins.contains("memory_cache.so") && plugins.contains("swift_stamp.so"))
        for plugin in plugins {
            let dynamic = try artifacts.require(await ProcessRunner.run(
                ["readelf", "-d", artifacts.pluginDirectory.appendingPathComponent(plugin).path]))
            #expect(!dynamic.output.contains("libcourier"), "\(plugin) links libcourier: \(dynamic.output)")
        }
    }
}
