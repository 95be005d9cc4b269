import ArgumentParser
import CourierTestServer
import Foundation

/// `courier serve`: the project's loopback test server in the foreground, to try `courier` against.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run Courier's loopback test server on 127.0.0.1 until Ctrl-C or SIGTERM.",
        usage: "courier serve [--port <port>] [--unix-socket <path>]",
        discussion: """
            Routes: /anything/… and /echo/… (the request as JSON), /status/{code},
            /bytes/{n}, /delay/{ms}, /redirect/{n}, /basic-auth/{user}/{password},
            /bearer, /gzip, /sse and more.
            """
    )

    @Option(help: "The port to listen on; 0 picks a free one.")
    var port = 0

    @Option(help: ArgumentHelp("Serve the same routes on a Unix domain socket at this path too.", valueName: "path"))
    var unixSocket: String?

    init() {}

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be from 0 to 65535") }
    }

    func run() async throws {
        let console = Console.standard
        let server: TestServer
        do {
            server = try await TestServer.start(port: port, unixSocketPath: unixSocket)
        } catch {
            console.error("cannot listen on 127.0.0.1:\(port)\(unixSocket.map { " and \($0)" } ?? ""): \(error)")
            throw ExitCode(ExitStatus.error.rawValue)
        }
        console.out(Self.banner(port: server.port))
        if let unixSocket {
            console.out(
                "Also on the Unix socket \(unixSocket): courier --unix-socket \(unixSocket) http://localhost/anything\n\n"
            )
        }
        _ = await SignalWaiter.wait()
        try? await server.shutdown()
        console.out("stopped\n")
    }

    /// What `serve` prints when it is ready: the URL and commands to paste into another terminal.
    static func banner(port: Int) -> String {
        """
        Courier test server on http://127.0.0.1:\(port) (Ctrl-C to stop)

        Try, in another terminal (from a checkout, `swift run courier` or .build/debug/courier):
          courier :\(port)/anything lang==en X-Demo:yes
          courier :\(port)/anything name=Ada age:=36 admin:=true
          courier --form :\(port)/anything title=Notes file@README.md
          courier --check-status :\(port)/status/404
          courier --download --output bytes.bin :\(port)/bytes/1048576
          courier --timeout 1 :\(port)/delay/3000

        """
    }
}
