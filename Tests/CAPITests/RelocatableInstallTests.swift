import CourierTestServer
import Foundation
import TestProcesses
import Testing

/// `scripts/build-libcourier.sh … PREFIX` installs a tree that needs no Swift toolchain: the
/// library with the Swift runtime linked in. The C example, built with `pkg-config` against it,
/// runs with a C plugin while the toolchain is hidden behind an empty directory in a mount
/// namespace of its own; and the library runs beside a Swift library on the shared runtime.
@Suite struct RelocatableInstallTests {
    @Test func theInstalledLibraryRunsWithTheToolchainHidden() async throws {
        let artifacts = try await CAPIArtifacts.shared.value
        let prefix = artifacts.work.appendingPathComponent("prefix-\(UUID())")
        let empty = artifacts.work.appendingPathComponent("empty-\(UUID())")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer {
            try? FileManager.default.removeItem(at: prefix)
            try? FileManager.default.removeItem(at: empty)
        }
        let install = try await ChildProcess.run(
            artifacts.repository.appendingPathComponent("scripts/build-libcourier.sh").path, ["debug", prefix.path],
            environment: ["COURIER_BUILD_DIR": try artifacts.staticRuntimeBuildDirectory().path],
            mergingErrorIntoOutput: true)
        try #require(install.status == 0, "\(install)")
        #expect(install.output.contains("the Swift runtime inside"), "\(install)")
        // The runtime is inside the library (#40): no private runtime directory, and no Swift
        // library, Foundation, ICU or NIO among what it loads.
        #expect(!FileManager.default.fileExists(atPath: prefix.appendingPathComponent("lib/courier").path))
        let linked = try await ChildProcess.run("ldd", [prefix.appendingPathComponent("lib/libcourier.so.1").path])
        for heavy in ["libswift", "libFoundation", "libdispatch", "ICU", "NIO"] {
            #expect(!linked.output.contains(heavy), "\(linked)")
        }

        let program = prefix.appendingPathComponent("courier_get")
        let compile = try await ChildProcess.shell(
            "cc -std=c99 -Wall -Wextra -Werror -o '\(program.path)' '\(artifacts.repository.path)/Examples/c/courier_get.c' "
                + "$(PKG_CONFIG_PATH='\(prefix.path)/lib/pkgconfig' pkg-config --cflags --libs courier)")
        try #require(compile.status == 0, "\(compile)")

        let toolchain = try await Self.toolchainRoot(of: artifacts.library)
        let plugin = artifacts.pluginDirectory.appendingPathComponent("hmac_signer.so").path
        let outcome = try await withTestServer { server in
            try await ChildProcess.run(
                "unshare",
                [
                    "-m", "sh", "-c",
                    "mount --bind \"$1\" \"$2\" && ls -A \"$2\" | wc -l && ldd \"$3\" && exec \"$3\" -p \"$4\" \"$5\"",
                    "sh", empty.path, toolchain, program.path, "\(plugin)=secret",
                    "\(server.baseURL.absoluteString)/anything",
                ],
                mergingErrorIntoOutput: true, timeout: .seconds(120))
        }
        #expect(outcome.status == 0, "\(outcome)")
        #expect(outcome.output.hasPrefix("0\n"), "the toolchain was hidden: \(outcome)")
        #expect(!outcome.output.contains("not found"), "\(outcome)")
        #expect(!outcome.output.contains(toolchain + "/"), "nothing resolves into the toolchain: \(outcome)")
        #expect(outcome.output.contains("HTTP 200"), "\(outcome)")
        #expect(outcome.output.contains("X-Signature"), "the plugin ran: \(outcome)")
    }

    /// A C program linked with the installed library (its Swift runtime inside) and with a Swift
    /// library on the toolchain's shared runtime sends through Courier while the neighbour runs
    /// Swift code of its own on four threads at once: two runtimes in one process, each with its
    /// own metadata, conformances, objects and tasks.
    @Test func theInstalledLibraryRunsBesideASwiftLibraryOnTheSharedRuntime() async throws {
        let artifacts = try await CAPIArtifacts.shared.value
        let prefix = artifacts.work.appendingPathComponent("prefix-\(UUID())")
        defer { try? FileManager.default.removeItem(at: prefix) }
        let install = try await ChildProcess.run(
            artifacts.repository.appendingPathComponent("scripts/build-libcourier.sh").path, ["debug", prefix.path],
            environment: ["COURIER_BUILD_DIR": try artifacts.staticRuntimeBuildDirectory().path],
            mergingErrorIntoOutput: true)
        try #require(install.status == 0, "\(install)")

        let neighbour = prefix.appendingPathComponent("libswift_neighbour.so")
        let swift = try await ChildProcess.run(
            "swiftc",
            [
                "-swift-version", "6", "-O", "-parse-as-library", "-emit-library", "-module-name", "SwiftNeighbour",
                "-module-cache-path", prefix.appendingPathComponent("module-cache").path, "-o", neighbour.path,
                artifacts.cSources.appendingPathComponent("swift_neighbour.swift").path,
            ],
            mergingErrorIntoOutput: true)
        try #require(swift.status == 0, "\(swift)")
        let program = prefix.appendingPathComponent("test_two_runtimes")
        let compile = try await ChildProcess.shell(
            "cc -std=c99 -Wall -Wextra -Werror -pthread -I'\(artifacts.cSources.path)' -o '\(program.path)' "
                + "'\(artifacts.cSources.path)/test_two_runtimes.c' "
                + "$(PKG_CONFIG_PATH='\(prefix.path)/lib/pkgconfig' pkg-config --cflags --libs courier) "
                + "-L'\(prefix.path)' -lswift_neighbour -Wl,-rpath,'\(prefix.path)'")
        try #require(compile.status == 0, "\(compile)")
        let loaded = try await ChildProcess.run("ldd", [program.path])
        #expect(loaded.output.contains("libswiftCore.so"), "the neighbour's shared runtime: \(loaded)")
        #expect(loaded.output.contains("\(prefix.path)/lib/libcourier.so.1"), "\(loaded)")

        let outcome = try await withTestServer { server in
            try await ChildProcess.run(
                program.path, [server.baseURL.absoluteString], mergingErrorIntoOutput: true, timeout: .seconds(120))
        }
        #expect(outcome.status == 0, "\(outcome)")
        #expect(outcome.output.contains("test_two_runtimes: ") && outcome.output.contains(" 0 failed"), "\(outcome)")
    }

    /// The toolchain the library was built with: its runtime directory (the library's RUNPATH)
    /// without `/usr/lib/swift/linux`.
    static func toolchainRoot(of library: URL) async throws -> String {
        let dynamic = try await ChildProcess.run("readelf", ["-d", library.path])
        let runpath = try #require(dynamic.output.split(separator: "\n").first { $0.contains("Library runpath") })
        let entries = runpath.split(separator: "[").last?.split(separator: "]").first?.split(separator: ":") ?? []
        let runtime = try #require(entries.map(String.init).first { !$0.hasPrefix("$ORIGIN") })
        return runtime.hasSuffix("/usr/lib/swift/linux")
            ? String(runtime.dropLast("/usr/lib/swift/linux".count)) : runtime
    }
}
