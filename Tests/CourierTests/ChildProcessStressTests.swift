import Courier
import CourierCurl
import CourierTestServer
import Foundation
import HTTPTypes
import TestProcesses
import Testing

/// Launching child processes from many tasks at once, while HTTP traffic runs beside them, must
/// neither crash the test process nor mix up their output (Foundation's `Process.run()` did).
@Suite("Child processes under load")
struct ChildProcessStressTests {
    static let launchingTasks = 6
    static let launchesPerTask = 40

    @Test func hundredsOfConcurrentLaunchesBesideHTTPTrafficAllSucceed() async throws {
        try await withTestServer { server in
            let base = server.baseURL.absoluteString
            let directory = FileManager.default.temporaryDirectory
            try await withThrowingTaskGroup(of: Int.self) { group in
                for task in 0..<Self.launchingTasks {
                    group.addTask {
                        for launch in 0..<Self.launchesPerTask {
                            let tag = "\(task)-\(launch)"
                            // Each launch varies what used to be read from process-wide state: the
                            // environment, the working directory, standard input.
                            switch launch % 4 {
                            case 0:
                                let run = try await ChildProcess.run(
                                    "/bin/sh", ["-c", "printf %s \"$COURIER_TAG\""],
                                    environment: ["COURIER_TAG": tag])
                                #expect(run.status == 0 && run.output == tag, "\(run)")
                            case 1:
                                let run = try await ChildProcess.run("pwd", directory: directory)
                                #expect(run.status == 0 && run.output.hasSuffix("\n"), "\(run)")
                            case 2:
                                let run = try await ChildProcess.run("cat", input: Array(tag.utf8))
                                #expect(run.status == 0 && run.output == tag, "\(run)")
                            default:
                                let run = try await ChildProcess.run("curl", ["-s", "\(base)/anything?tag=\(tag)"])
                                #expect(run.status == 0 && run.output.contains(tag), "\(run)")
                            }
                        }
                        return Self.launchesPerTask
                    }
                }
                // HTTP traffic through the pipeline for as long as the launches go on.
                group.addTask {
                    let transport = CurlTransport()
                    let client = Client(transport: transport)
                    for index in 0..<200 {
                        let response = try await client.send(
                            try Request {
                                BaseURL(server.baseURL)
                                "anything"
                                Query("n", String(index))
                            })
                        #expect(response.status.code == 200)
                    }
                    await transport.shutdown()
                    return 0
                }
                let launched = try await group.reduce(0, +)
                #expect(launched == Self.launchingTasks * Self.launchesPerTask)
            }
        }
    }

    @Test func aProcessStillRunningAtItsDeadlineIsKilledAndReported() async throws {
        let started = ContinuousClock.now
        await #expect(throws: ChildProcessError.self) {
            _ = try await ChildProcess.run("sleep", ["30"], timeout: .milliseconds(300))
        }
        // Killed, not waited for: `sleep 30` would take 30 s (the margin is for a loaded machine).
        #expect(ContinuousClock.now - started < .seconds(25))
    }

    @Test func aBackgroundProcessStopsOnItsSignalAndReportsHowItEnded() async throws {
        let sleeper = try BackgroundProcess("sleep", ["30"])
        #expect(try await sleeper.stop(with: SIGTERM) == 128 + SIGTERM)
        let talker = try BackgroundProcess("/bin/sh", ["-c", "echo ready; exit 3"])
        #expect(try await talker.waitForExit() == 3)
        #expect(talker.output() == "ready\n")
    }

    @Test func aMissingExecutableIsAnErrorNotACrash() async throws {
        await #expect(throws: (any Error).self) {
            _ = try await ChildProcess.run("/nonexistent/courier-no-such-program")
        }
    }
}
