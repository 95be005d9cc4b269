public import CCourier
import Courier
import CourierCInterceptors

@c @implementation
public func courier_plugin_load(
    _ client: OpaquePointer?, _ path: UnsafePointer<CChar>?, _ config: UnsafePointer<CChar>?,
    _ plugin: UnsafeMutablePointer<OpaquePointer?>?,
    _ error: UnsafeMutablePointer<OpaquePointer?>?
) -> courier_code {
    reporting(error) {
        let box = try clientBox(client)
        let path = try CInput.string(path, "path")
        let config = try CInput.optionalString(config, "config")
        guard !ThreadRole.isInsideCallback else {
            throw CAPIFailure(
                COURIER_E_WOULD_BLOCK, detail: "loading a plugin from inside a Courier callback is refused")
        }
        let loaded = try PluginLoader.load(path: path, config: config, defaultTimeout: box.timeout)
        box.append(loaded.interceptors)
        if let plugin {
            do {
                plugin.pointee = try register(PluginBox(plugin: loaded, client: box))
            } catch {
                let mine = loaded.interceptors.map { ObjectIdentifier($0 as AnyObject) }
                box.removeInterceptors(where: { mine.contains(ObjectIdentifier($0 as AnyObject)) })
                throw error
            }
        }
    }
}

@c @implementation
public func courier_plugin_unload(
    _ plugin: OpaquePointer?, _ error: UnsafeMutablePointer<OpaquePointer?>?
) -> courier_code {
    reporting(error) {
        guard let box = HandleRegistry.shared.object(plugin, as: PluginBox.self) else {
            throw CAPIFailure.invalidHandle("plugin")
        }
        guard box.unload() else {
            throw CAPIFailure(
                COURIER_E_NOT_FOUND, detail: "plugin \(box.plugin.name) is not registered on a live client")
        }
    }
}

@c @implementation
public func courier_plugin_name(
    _ plugin: OpaquePointer?, _ name: UnsafeMutablePointer<UnsafePointer<CChar>?>?,
    _ error: UnsafeMutablePointer<OpaquePointer?>?
) -> courier_code {
    reporting(error) {
        guard let box = HandleRegistry.shared.object(plugin, as: PluginBox.self) else {
            throw CAPIFailure.invalidHandle("plugin")
        }
        guard let name else { throw CAPIFailure.invalidArgument("name is NULL") }
        name.pointee = box.borrowed.withLock { $0.cString(.pluginName, box.plugin.name) }
    }
}

@c @implementation
public func courier_plugin_version(
    _ plugin: OpaquePointer?, _ version: UnsafeMutablePointer<UnsafePointer<CChar>?>?,
    _ error: UnsafeMutablePointer<OpaquePointer?>?
) -> courier_code {
    reporting(error) {
        guard let box = HandleRegistry.shared.object(plugin, as: PluginBox.self) else {
            throw CAPIFailure.invalidHandle("plugin")
        }
        guard let version else { throw CAPIFailure.invalidArgument("version is NULL") }
        version.pointee = box.borrowed.withLock { $0.cString(.pluginVersion, box.plugin.version) }
    }
}

@c @implementation
public func courier_plugin_free(_ plugin: OpaquePointer?) -> courier_code {
    guard let plugin else { return COURIER_OK }
    return HandleRegistry.shared.remove(plugin, as: PluginBox.self) == nil ? COURIER_E_INVALID_HANDLE : COURIER_OK
}
