import Foundation

/// `--cache[=DIR]`: the option takes its directory only after `=`, as HTTPie's optional-value
/// options do, so a bare `--cache` is given the default directory before parsing (argument-parser
/// has no option whose value may be left out).
enum CacheArgument {
    /// `arguments` with each bare `--cache` before any `--` made `--cache=<default directory>`.
    static func expandingBareFlag(
        in arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> [String] {
        var expanded: [String] = []
        var options = true
        for argument in arguments {
            if argument == "--" { options = false }
            expanded.append(options && argument == "--cache" ? "--cache=" + defaultDirectory(environment) : argument)
        }
        return expanded
    }

    /// `$XDG_CACHE_HOME/courier/http`, else `~/.cache/courier/http` (an empty variable counts as unset).
    static func defaultDirectory(_ environment: [String: String]) -> String {
        if let xdg = environment["XDG_CACHE_HOME"], !xdg.isEmpty { return xdg + "/courier/http" }
        let home =
            environment["HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? FileManager.default.homeDirectoryForCurrentUser.path
        return home + "/.cache/courier/http"
    }
}
