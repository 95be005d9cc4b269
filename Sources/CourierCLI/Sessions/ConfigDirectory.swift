public import Foundation

/// Where `courier` keeps its configuration and sessions, as HTTPie does with `HTTPIE_CONFIG_DIR`:
/// `COURIER_CONFIG_DIR`, else `$XDG_CONFIG_HOME/courier`, else `~/.config/courier`.
public struct ConfigDirectory: Sendable, Equatable {
    /// The directory itself; it need not exist until a session is saved.
    public var url: URL

    /// The directory at `url`.
    public init(url: URL) { self.url = url }

    /// The directory `environment` names (XDG Base Directory rules; an empty variable counts as unset).
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        func value(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        if let explicit = value("COURIER_CONFIG_DIR") {
            url = URL(fileURLWithPath: explicit)
        } else if let xdg = value("XDG_CONFIG_HOME") {
            url = URL(fileURLWithPath: xdg).appendingPathComponent("courier")
        } else {
            let home = value("HOME").map { URL(fileURLWithPath: $0) } ?? FileManager.default.homeDirectoryForCurrentUser
            url = home.appendingPathComponent(".config/courier")
        }
    }

    /// `config.json`, whose `default_options` come before the command line's arguments.
    public var configFile: URL { url.appendingPathComponent("config.json") }

    /// The file of the session `name` for requests to `authority` (`host:port` becomes `host_port`,
    /// HTTPie's layout): `sessions/127.0.0.1_8080/name.json`.
    public func sessionFile(named name: String, authority: String) -> URL {
        url.appendingPathComponent("sessions")
            .appendingPathComponent(authority.replacingOccurrences(of: ":", with: "_"))
            .appendingPathComponent(name + ".json")
    }
}
