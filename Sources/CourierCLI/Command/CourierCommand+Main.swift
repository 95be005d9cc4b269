import ArgumentParser

extension CourierCommand {
    /// Parses `arguments`, runs the chosen command, and returns the process exit status.
    ///
    /// `serve`, `demo` and `help` are picked here, before parsing, because a first positional
    /// argument of the request command would otherwise swallow them. Unlike `main()`, a usage error
    /// is one `courier: error:` line and status 1 (HTTPie's), not argument-parser's usage dump and
    /// status 64; `--help` and `--version` print and return 0.
    public static func exitStatus(running arguments: [String]) async -> Int32 {
        let console = Console.standard
        let subcommands: [String: any ParsableCommand.Type] = ["serve": ServeCommand.self, "demo": DemoCommand.self]
        if arguments.first == "help" {
            let topic = arguments.dropFirst().first.flatMap { subcommands[$0] } ?? CourierCommand.self
            console.out(topic.helpMessage() + "\n")
            return ExitStatus.success.rawValue
        }
        let (type, rest) =
            arguments.first.flatMap { subcommands[$0] }.map { ($0, Array(arguments.dropFirst())) }
            ?? (CourierCommand.self, arguments)
        do {
            // config.json's default_options come first, so the command line's own options follow and win.
            let defaults =
                type == CourierCommand.self
                ? try ConfigFile(contentsOf: ConfigDirectory().configFile).defaultOptions : []
            let rest = CacheArgument.expandingBareFlag(in: defaults + rest)
            var command = try type.parseAsRoot(rest)
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            return ExitStatus.success.rawValue
        } catch let code as ExitCode {
            return code.rawValue
        } catch {
            let code = type.exitCode(for: error)
            if code == .success {
                console.out(type.fullMessage(for: error) + "\n")
                return code.rawValue
            }
            if let configError = error as? ConfigFileError {
                console.error(configError.description)
                return ExitStatus.error.rawValue
            }
            console.error(type.message(for: error) + " (see 'courier --help')")
            return ExitStatus.error.rawValue
        }
    }
}
