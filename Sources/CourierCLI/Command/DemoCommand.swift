import ArgumentParser
import Courier
import CourierTestServer
import Foundation
import HTTPTypes

/// `courier demo`: a tour that needs no network, sending real requests to an embedded loopback server.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Start an embedded loopback server and send a few requests to it through Courier's pipeline.",
        usage: "courier demo"
    )

    init() {}

    func run() async throws {
        let console = Console.standard
        let status = try await withTestServer { server in
            try await Self.tour(port: server.port, console: console)
        }
        if status != .success { throw ExitCode(status.rawValue) }
    }

    /// The commands of the tour, each run as `courier` would run it.
    static func steps(
        port: Int, console: Console
    ) -> [(note: String, arguments: [String], interceptors: [any Interceptor])] {
        [
            (
                "A GET with query items and a header; -p Hhb prints the request head too.",
                ["-p", "Hhb", ":\(port)/anything", "lang==en", "page==2", "X-Demo:yes"], []
            ),
            (
                "A JSON POST: name=value is a string, name:=json is raw JSON; the method follows from the data.",
                ["-p", "HBhb", ":\(port)/anything", "name=Ada", "age:=36", "languages:=[\"Swift\",\"C\"]"], []
            ),
            (
                "Through an interceptor that stamps a request ID and reports what it changed.",
                ["-p", "Hh", "DELETE", ":\(port)/status/204"], [StampRequestID(console: console)]
            ),
            (
                "--check-status turns a 404 into exit status 4, for scripts.",
                ["--check-status", "-p", "h", ":\(port)/status/404"], []
            ),
            (
                "--curl prints the same request as a curl command, without sending it.",
                ["--curl", ":\(port)/anything", "name=Ada"], []
            ),
        ]
    }

    static func tour(port: Int, console: Console) async throws -> ExitStatus {
        console.out(
            """
            Courier demo: an embedded test server listens on http://127.0.0.1:\(port), and each command
            below goes through Courier's pipeline and the libcurl transport exactly as `courier` sends it.


            """)
        for step in steps(port: port, console: console) {
            console.out("# \(step.note)\n$ courier \(step.arguments.map(Self.shellWord).joined(separator: " "))\n")
            var command = try CourierCommand.parse(step.arguments)
            command.output.pretty = console.isOutTerminal ? .all : .format
            let status = await command.execute(
                console: console, standardInput: nil, extraInterceptors: step.interceptors)
            console.out("\n(exit status \(status.rawValue))\n\n")
            if status == .error { return status }
        }
        console.out(
            "Next: `swift run courier serve --port 8080`, then `swift run courier :8080/anything hello=world` in another terminal.\n"
        )
        return .success
    }

    /// `word` quoted for a POSIX shell when it needs to be.
    static func shellWord(_ word: String) -> String {
        word.allSatisfy { $0.isLetter || $0.isNumber || ":/=_-.,".contains($0) }
            ? word : "'\(word.replacingOccurrences(of: "'", with: "'\\''"))'"
    }
}

/// The demo's visible interceptor: adds `X-Request-ID` and prints what it did and how long the rest took.
struct StampRequestID: Interceptor {
    let console: Console

    func intercept(_ request: Request, context: InterceptorContext, next: Next) async throws -> Response {
        let stamped = try request.updating { Header.custom("X-Request-ID").setValue(context.requestID) }
        let clock = ContinuousClock()
        let start = clock.now
        let response = try await next(stamped)
        let elapsed = clock.now - start
        let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        console.out(
            "[StampRequestID] added X-Request-ID: \(context.requestID); the rest of the pipeline answered \(response.status.code) in \(ByteCount.oneDecimal(milliseconds)) ms\n"
        )
        return response
    }
}
