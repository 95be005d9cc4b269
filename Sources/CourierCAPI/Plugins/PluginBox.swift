import CourierCInterceptors

/// What a `courier_plugin` handle names: a loaded plugin and the client it registered on.
///
/// `@unchecked Sendable` for the `weak var client`, which is only read (a weak load is atomic) and
/// set once, at creation; the borrowed strings are behind their lock, and the plugin is immutable.
final class PluginBox: HandleObject, @unchecked Sendable {
    static let handleKind = HandleKind.plugin

    let plugin: InterceptorPlugin
    private weak var client: ClientBox?
    let borrowed = Locked(BorrowedStrings())

    init(plugin: InterceptorPlugin, client: ClientBox) {
        self.plugin = plugin
        self.client = client
    }

    /// Removes this plugin's interceptors from its client, by identity.
    func unload() -> Bool {
        guard let client else { return false }
        let mine = plugin.interceptors.map { ObjectIdentifier($0 as AnyObject) }
        return client.removeInterceptors(where: { mine.contains(ObjectIdentifier($0 as AnyObject)) }) > 0
    }
}
