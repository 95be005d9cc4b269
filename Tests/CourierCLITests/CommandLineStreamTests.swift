import CourierTestServer
import Foundation
import TestProcesses
import Testing

extension CourierExecutableTests {
    /// HTTPie 3.2's `--stream`/`-S` on the built `courier`: a long-lived body is printed line by
    /// line as it arrives, each line laid out on its own, rather than buffered to be formatted.
    @Suite("--stream")
    struct CommandLineStreamTests {
        /// Starts `courier arguments…` in the background and returns it once its output contains
        /// `text`, or after 30 s.
        func started(_ arguments: [String], printing text: String) async throws -> (BackgroundProcess, Bool) {
            let courier = try #require(CourierProcess.builtExecutable)
            let process = try BackgroundProcess(courier.path, arguments)
            for _ in 0..<300 {
                if process.output().contains(text) { return (process, true) }
                try await Task.sleep(for: .milliseconds(100))
            }
            return (process, false)
        }

        @Test func streamPrintsEachEventAsItArrives() async throws {
            try await withTestServer { server in
                // The second event comes a minute after the first: only a streamed first event is printed before it.
                let (process, printed) = try await started(
                    ["-S", "--pretty", "all", ":\(server.port)/sse?count=2&interval_ms=60000"],
                    printing: "data: of 2\n\n")
                #expect(printed, "printed so far: \(process.output()) \(process.errorOutput())")
                #expect(process.output() == ": event 1\nid: 1\nevent: tick\ndata: event 1\ndata: of 2\n\n")
                _ = try await process.stop()
            }
        }

        @Test func withoutStreamAFormattedBodyWaitsForItsEnd() async throws {
            try await withTestServer { server in
                let courier = try #require(CourierProcess.builtExecutable)
                let process = try BackgroundProcess(
                    courier.path, ["--pretty", "all", ":\(server.port)/sse?count=2&interval_ms=60000"])
                for _ in 0..<300 where server.receivedRequests.isEmpty { try await Task.sleep(for: .milliseconds(100)) }
                try await Task.sleep(for: .seconds(1))
                #expect(process.output().isEmpty)
                _ = try await process.stop()
            }
        }

        @Test func streamFormatsEachJSONLineOnItsOwn() async throws {
            try await withTestServer { server in
                let run = try await CourierProcess.run(["-S", "--pretty", "format", ":\(server.port)/stream/2"])
                #expect(run.status == 0, "\(run.err)")
                #expect(
                    run.out
                        == "{\n    \"id\": 0,\n    \"path\": \"/stream/2\"\n}\n{\n    \"id\": 1,\n    \"path\": \"/stream/2\"\n}\n",
                    "\(run.out)")

                let piped = try await CourierProcess.run(["--stream", ":\(server.port)/stream/2"])
                #expect(piped.out == "{\"id\":0,\"path\":\"/stream/2\"}\n{\"id\":1,\"path\":\"/stream/2\"}\n")
            }
        }

        @Test func streamWithDownloadIsAUsageError() async throws {
            let run = try await CourierProcess.run(["-S", "--download", "example.org"])
            #expect(run.status == 1)
            #expect(
                run.err.contains("--stream prints the body as it arrives and --download saves it; choose one"),
                "\(run.err)")
        }
    }
}
