import Courier
import CourierCInterceptors

/// One `--plugin path.so[=config]`: a C interceptor plugin to load, and the text passed to its init.
///
/// The path ends at the first `=`; everything after it, `=` included, is the config, so a config
/// may hold a URL or `key=value` pairs, and a path may not hold `=`. A path without a slash names a
/// file in the current directory, as any path on a command line does (never a library that
/// `dlopen` would search the system for).
struct PluginArgument: Sendable, Equatable {
    /// Where the shared object is.
    var path: String
    /// What `courier_plugin_init` receives as `config`; `nil` without `=`.
    var config: String?

    /// Splits `argument` at its first `=`.
    init(_ argument: String) {
        if let equals = argument.firstIndex(of: "=") {
            path = String(argument[..<equals])
            config = String(argument[argument.index(after: equals)...])
        } else {
            path = argument
            config = nil
        }
        if !path.contains("/") { path = "./" + path }
    }

    /// Loads the plugin and returns its interceptors, in the order it registered them.
    ///
    /// - Throws: `CourierError` (`pluginFailed`) from `--plugin`, saying which step failed and for which path.
    func load(requestTimeout: Duration?) throws -> [any Interceptor] {
        do {
            return try InterceptorPlugin.load(path: path, config: config, requestTimeout: requestTimeout).interceptors
        } catch var error as CourierError {
            error.source = "--plugin"
            throw error
        }
    }
}
