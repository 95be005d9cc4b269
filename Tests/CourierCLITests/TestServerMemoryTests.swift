import Foundation
import TestProcesses
import Testing

/// The test server's memory stays bounded while it streams a quarter gigabyte out and takes
/// 100 MB in, measured in a process of its own (`courier serve`), where no other suite's
/// allocations blur the figure.
@Suite("test server memory, in its own process", .timeLimit(.minutes(2)))
struct TestServerMemoryTests {
    /// What either transfer may add to the server's resident memory.
    static let bound = 48 << 20

    /// The resident memory of process `pid`, from `/proc/<pid>/status`.
    static func residentBytes(of pid: Int32) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") })
        let kilobytes = try #require(Int(line.split(separator: " ").dropFirst().first ?? ""))
        return kilobytes << 10
    }

    @Test func streamingOutAndTakingInLargeBodiesKeepsTheServersMemoryBounded() async throws {
        let serve = try CourierProcess.start(["serve"])
        var port: Int?
        // The process ID is known once the task running it is scheduled, which on a busy machine
        // can come after the banner.
        for _ in 0..<300 where port == nil || serve.processIdentifier == nil {
            try await Task.sleep(for: .milliseconds(100))
            let banner = serve.output()
            if let range = banner.range(of: "http://127.0.0.1:") {
                port = Int(banner[range.upperBound...].prefix { $0.isNumber })
            }
        }
        guard let port, let pid = serve.processIdentifier else {
            try await serve.stop(with: SIGKILL)
            Issue.record("serve printed no URL, or its process ID never came: \(serve.errorOutput())")
            return
        }
        let base = "http://127.0.0.1:\(port)"
        _ = try await ChildProcess.run("curl", ["-s", "-o", "/dev/null", "\(base)/bytes/1000000"])
        let before = try Self.residentBytes(of: pid)

        let download = try await ChildProcess.run(
            "curl",
            [
                "-s", "--max-time", "60", "-o", "/dev/null",
                "-w", "%{size_download}", "\(base)/bytes/256000000",
            ])
        #expect(download.output == "256000000")
        let afterDownload = try Self.residentBytes(of: pid)

        let upload = try await ChildProcess.shell(
            "head -c 100000000 /dev/zero | curl -s --max-time 60 -H 'Expect:' --data-binary @- '\(base)/upload'")
        #expect(upload.output.contains("\"received\":100000000"), "\(upload)")
        let afterUpload = try Self.residentBytes(of: pid)

        #expect(
            afterDownload - before < Self.bound, "256 MB out grew the server by \((afterDownload - before) >> 20) MiB")
        #expect(afterUpload - before < Self.bound, "100 MB in grew the server by \((afterUpload - before) >> 20) MiB")
        #expect(try await serve.stop(with: SIGINT) == 0)
    }
}
