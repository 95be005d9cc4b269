import CourierTestServer
import Foundation
import TestProcesses
import Testing

@testable import CourierCLI

extension CourierExecutableTests {
    /// `--cache[=DIR]`: responses kept in a directory between runs, shared by processes running at
    /// once, and what the cache did shown in `Cache-Status` and in `-v`'s line.
    @Suite("--cache")
    struct CommandLineCacheTests {
        static func temporaryDirectory() -> String {
            FileManager.default.temporaryDirectory.appendingPathComponent("courier-cli-cache-\(UUID().uuidString)").path
        }

        @Test func aSecondRunIsAnsweredFromTheCacheDirectory() async throws {
            let directory = Self.temporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            try await withTestServer { server in
                let url = ":\(server.port)/cache/cli-1?cc=max-age%3D60"
                let first = try await CourierProcess.run(["-p", "hb", "--cache=\(directory)", url])
                #expect(first.status == 0, "\(first.err)")
                #expect(first.out.contains("Cache-Status: Courier; fwd=uri-miss; fwd-status=200; stored; ttl=60"))
                let second = try await CourierProcess.run(["-v", "-p", "hb", "--cache=\(directory)", url])
                #expect(second.out.contains("Cache-Status: Courier; hit; ttl="))
                #expect(second.out.contains("cli-1 #1"))
                #expect(second.err.contains("Courier; hit"), "the -v line shows what the cache did: \(second.err)")
                let uncached = try await CourierProcess.run(["-p", "hb", url])
                #expect(!uncached.out.contains("Cache-Status"))
                #expect(uncached.out.contains("cli-1 #2"))
            }
        }

        @Test func aBareCacheFlagUsesTheXDGCacheDirectory() async throws {
            let home = Self.temporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: home) }
            try await withTestServer { server in
                let url = ":\(server.port)/cache/cli-2?cc=max-age%3D60"
                for _ in 0..<2 {
                    let run = try await CourierProcess.run(
                        ["-p", "hb", "--cache", url], environment: ["XDG_CACHE_HOME": home])
                    #expect(run.status == 0, "\(run.err)")
                }
                #expect(FileManager.default.fileExists(atPath: home + "/courier/http"))
                let hits = try String(
                    contentsOf: server.baseURL.appendingPathComponent("cache-hits/cli-2"), encoding: .utf8)
                #expect(hits == "1")
            }
            #expect(
                CacheArgument.expandingBareFlag(in: ["--cache", "x", "--", "--cache"], environment: ["HOME": "/h"])
                    == ["--cache=/h/.cache/courier/http", "x", "--", "--cache"])
        }

        @Test func processesSharingOneCacheDirectoryNeverReadACorruptEntry() async throws {
            let directory = Self.temporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            try await withTestServer { server in
                // Two keys whose answers differ in size, each stale at once, so every run
                // revalidates, rewrites the entry and reads it back while the others do the same.
                let urls = [
                    ":\(server.port)/cache/cli-3?cc=max-age%3D0&etag=a",
                    ":\(server.port)/stream-bytes/200000?chunk_size=7000",
                ]
                try await withThrowingTaskGroup(of: CourierRun.self) { group in
                    for index in 0..<12 {
                        group.addTask {
                            try await CourierProcess.run(["-p", "b", "--cache=\(directory)", urls[index % 2]])
                        }
                    }
                    for try await run in group {
                        #expect(run.status == 0, "\(run.err)")
                        #expect(
                            run.stdout.count == 200_000 || run.out.hasPrefix("cli-3 #"), "\(run.stdout.count) bytes")
                    }
                }
            }
        }
    }
}
