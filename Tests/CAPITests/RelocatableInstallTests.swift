import CourierTestServer
import Foundation
import TestProcesses
import Testing

/// `scripts/build-libcourier.sh … PREFIX` installs a tree that needs no Swift toolchain: the C
/// example, built with `pkg-config` against it, runs with a C plugin while the toolchain is hidden
/// behind an empty directory in a mount namespace of its own.
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
            environment: ["COURIER_BUILD_DIR": artifacts.buildDirectory.path], mergingErrorIntoOutput: true)
        try #require(install.status == 0, "\(install)")
        #expect(install.output.contains("the Swift runtime in lib/courier"), "\(install)")
        // The default library runs on FoundationEssentials: no full Foundation, no ICU, no NIO (#40).
        let runtime = try FileManager.default.contentsOfDirectory(
            atPath: prefix.appendingPathComponent("lib/courier").path)
        for heavy in ["libFoundation.so", "libFoundationNetworking.so", "lib_FoundationICU.so", "libswiftDispatch.so"] {
            #expect(!runtime.contains(heavy), "\(heavy) was installed: \(runtime)")
        }
        let linked = try await ChildProcess.run("ldd", [prefix.appendingPathComponent("lib/libcourier.so.1").path])
        for heavy in ["libFoundation.so", "libFoundationNetworking", "ICU", "NIO"] {
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
