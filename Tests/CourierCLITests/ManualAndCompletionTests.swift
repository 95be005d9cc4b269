import Foundation
import TestProcesses
import Testing

extension CourierExecutableTests {
    /// The manual page (`docs/courier.1`, written by argument-parser's generate-manual through
    /// `scripts/generate-manual`) and the shell completions of the built `courier`.
    @Suite("manual page and completions")
    struct ManualAndCompletionTests {
        static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()

        /// Every long option name of the built tool, from argument-parser's own description of it.
        func longOptions() async throws -> [String] {
            let dump = try await CourierProcess.run(["--experimental-dump-help"])
            #expect(dump.status == 0, "\(dump.err)")
            let info = try #require(try JSONSerialization.jsonObject(with: dump.stdout) as? [String: Any])
            let command = try #require(info["command"] as? [String: Any])
            let arguments = try #require(command["arguments"] as? [[String: Any]])
            return arguments.flatMap { argument in
                ((argument["names"] as? [[String: Any]]) ?? []).compactMap { name in
                    name["kind"] as? String == "long" ? name["name"] as? String : nil
                }
            }
        }

        @Test func theCommittedManualListsEveryOptionOfTheBuiltTool() async throws {
            let manual = try String(contentsOf: Self.root.appendingPathComponent("docs/courier.1"), encoding: .utf8)
            let options = try await longOptions()
            #expect(options.count > 40)
            let missing = options.filter { !manual.contains("Fl -\($0)") }
            #expect(missing.isEmpty, "docs/courier.1 lacks \(missing); run scripts/generate-manual")
        }

        @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/man"), "needs man-db"))
        func theManualRendersWithItsSections() async throws {
            let page = Self.root.appendingPathComponent("docs/courier.1").path
            let run = try await ChildProcess.run(
                "/usr/bin/man", ["-l", page], environment: ["MANWIDTH": "80", "MANPAGER": "cat", "PAGER": "cat"])
            #expect(run.status == 0)
            for heading in ["NAME", "SYNOPSIS", "DESCRIPTION", "EXIT STATUS", "--session-read-only", "--history-print"]
            {
                #expect(run.output.contains(heading), "\(heading)")
            }
        }

        @Test func bashCompletionCompletesOptionsAndTheirValues() async throws {
            let courier = try #require(CourierProcess.builtExecutable)
            let script = """
                source <('\(courier.path)' --generate-completion-script bash)
                COMP_WORDS=(courier --ses); COMP_CWORD=1; COMP_LINE="courier --ses"; COMP_POINT=${#COMP_LINE}; COMPREPLY=()
                _courier courier --ses courier
                echo "options: ${COMPREPLY[*]}"
                COMP_WORDS=(courier --auth-type ''); COMP_CWORD=2; COMP_LINE="courier --auth-type "; COMP_POINT=${#COMP_LINE}; COMPREPLY=()
                _courier courier '' --auth-type
                echo "values: ${COMPREPLY[*]}"
                """
            let run = try await ChildProcess.run("/bin/bash", ["-c", script])
            #expect(run.status == 0, "\(run.errorOutput)")
            #expect(
                run.output == "options: --session --session-read-only\nvalues: basic bearer digest\n", "\(run.output)")
        }

        @Test(arguments: [("zsh", "#compdef courier"), ("fish", "complete -c 'courier'")])
        func everyShellGetsItsScript(shell: String, marker: String) async throws {
            let run = try await CourierProcess.run(["--generate-completion-script", shell])
            #expect(run.status == 0, "\(run.err)")
            #expect(run.out.contains(marker))
            #expect(run.out.contains("session-read-only"))
        }
    }
}
