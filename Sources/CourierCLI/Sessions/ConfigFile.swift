public import Foundation

/// `config.json` in the ``ConfigDirectory``, as HTTPie reads it: `default_options` are arguments
/// put before the command line's, so the command line's own options come later and win.
///
/// ```json
/// {"default_options": ["--follow", "--pretty=format"]}
/// ```
public struct ConfigFile: Sendable, Equatable {
    /// The arguments every request command starts with.
    public var defaultOptions: [String] = []

    /// No defaults.
    public init(defaultOptions: [String] = []) { self.defaultOptions = defaultOptions }

    /// The file at `url`, or no defaults when there is none.
    ///
    /// - Throws: ``ConfigFileError`` naming the file when it cannot be read or is not a JSON object
    ///   whose `default_options` is a list of strings.
    public init(contentsOf url: URL) throws {
        guard FileManager.default.fileExists(atPath: url.path) else { return }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw ConfigFileError(path: url.path, problem: "cannot be read (\(error.localizedDescription))")
        }
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw ConfigFileError(path: url.path, problem: "is not a JSON object")
        }
        guard let options = object["default_options"] else { return }
        guard let strings = options as? [String] else {
            throw ConfigFileError(
                path: url.path, problem: "default_options must be a list of strings, such as [\"--follow\"]")
        }
        defaultOptions = strings
    }
}

/// A `config.json` that cannot be used.
public struct ConfigFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file.
    public var path: String
    /// What is wrong with it.
    public var problem: String

    public var description: String { "the config file \(path) \(problem)" }
}
