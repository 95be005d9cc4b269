import CourierTestServer
import Foundation
import Testing

extension CourierExecutableTests {
    /// `--download --continue`, as HTTPie: a download that broke off resumes from its part.
    @Suite("resumed downloads")
    struct CommandLineResumeTests {
        @Test func continueResumesABrokenDownload() async throws {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("cli-download-\(UUID())").path
            defer {
                for file in [path, path + ".part", path + ".part.validator"] {
                    try? FileManager.default.removeItem(atPath: file)
                }
            }
            try await withTestServer { server in
                let url = "http://127.0.0.1:\(server.port)/range/100000"
                let broken = try await CourierProcess.run(["--download", "--output", path, url + "?drop_after=40000"])
                #expect(broken.status != 0)
                #expect(FileManager.default.fileExists(atPath: path + ".part"))
                let resumed = try await CourierProcess.run(["--download", "--continue", "--output", path, url])
                #expect(resumed.status == 0, "\(resumed.err)")
                let data = try Data(contentsOf: URL(fileURLWithPath: path))
                #expect(data.count == 100_000 && CountingBytesStream.matches(data, at: 0))
            }
        }

        @Test func continueNeedsDownloadAndOutput() async throws {
            let run = try await CourierProcess.run(["--continue", "--download", "example.org"])
            #expect(run.status == 1 && run.err.contains("--continue"), "\(run.err)")
        }
    }
}
