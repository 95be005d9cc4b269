package import CCourier
public import Courier

#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif

/// An interceptor plugin: a shared object, loaded at run time, that registers C interceptors.
///
/// ```swift
/// let signer = try InterceptorPlugin.load(path: "./hmac_signer.so", config: "secret-key")
/// let client = Client(interceptors: signer.interceptors)
/// ```
///
/// Loading follows `courier_plugin_load` in `courier.h`: `dlopen(RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE)`,
/// the plugin's `courier_plugin_info` checked for the ABI major before any plugin code runs, then
/// its `courier_plugin_init` called with the host function table. The library is never closed.
public struct InterceptorPlugin: Sendable {
    /// The name the plugin gives itself.
    public let name: String
    /// The plugin's version.
    public let version: String
    /// The path it was loaded from.
    public let path: String
    /// The interceptors it registered, in order.
    public let interceptors: [any Interceptor]

    /// Loads the plugin at `path`, passing it `config`.
    ///
    /// - Parameter requestTimeout: the timeout of requests that set none, so a callback that runs
    ///   past it fails the send with `timedOut`.
    /// - Throws: `CourierError` with code `pluginFailed`, saying which step failed.
    public static func load(
        path: String, config: String? = nil, requestTimeout: Duration? = .seconds(60)
    ) throws -> InterceptorPlugin {
        do {
            return try PluginLoader.load(path: path, config: config, defaultTimeout: requestTimeout)
        } catch let failure as CAPIFailure {
            throw CourierError(.pluginFailed, failure.message, source: "InterceptorPlugin.load")
        }
    }
}
