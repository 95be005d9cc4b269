import CCourier
import Courier
import Foundation

/// Opens plugin libraries and runs their init, each failure a `COURIER_E_PLUGIN` that says which step failed.
enum PluginLoader {
    /// The bytes of `courier_plugin_metadata` up to and including `version`: what every plugin has.
    private static let metadataV1Size = MemoryLayout<courier_plugin_metadata>.size

    static func load(path: String, config: String?, defaultTimeout: Duration?) throws -> InterceptorPlugin {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw failure("no plugin file at \(path)")
        }
        // RTLD_NODELETE: Courier never unmaps a plugin, so code a send may still run stays mapped.
        guard let library = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE) else {
            let reason = dlerror().map { String(cString: $0) } ?? "unknown dlopen error"
            throw failure("cannot load \(path): \(reason)")
        }
        guard let infoSymbol = dlsym(library, COURIER_PLUGIN_INFO_SYMBOL) else {
            throw failure("\(path) has no \(COURIER_PLUGIN_INFO_SYMBOL) symbol; is it a Courier plugin?")
        }
        let info = infoSymbol.assumingMemoryBound(to: courier_plugin_metadata.self)
        guard info.pointee.struct_size >= metadataV1Size else {
            throw failure("\(path): \(COURIER_PLUGIN_INFO_SYMBOL).struct_size is \(info.pointee.struct_size), too small")
        }
        guard info.pointee.abi_major == UInt32(COURIER_ABI_MAJOR) else {
            throw failure("\(path) was built for Courier ABI \(info.pointee.abi_major).\(info.pointee.abi_minor); "
                          + "this host has ABI \(COURIER_ABI_MAJOR).\(COURIER_ABI_MINOR)")
        }
        guard let namePointer = info.pointee.name, let name = String(validatingCString: namePointer), !name.isEmpty,
              let versionPointer = info.pointee.version, let version = String(validatingCString: versionPointer)
        else {
            throw failure("\(path): \(COURIER_PLUGIN_INFO_SYMBOL) lacks a UTF-8 name or version")
        }
        guard let initSymbol = dlsym(library, COURIER_PLUGIN_INIT_SYMBOL) else {
            throw failure("plugin \(name) (\(path)) has no \(COURIER_PLUGIN_INIT_SYMBOL) function")
        }
        let initialize = unsafeBitCast(initSymbol, to: courier_plugin_init_fn.self)
        let registrar = RegistrarBox(defaultTimeout: defaultTimeout)
        guard let registrarHandle = HandleRegistry.shared.register(registrar) else {
            throw failure("too many live handles")
        }
        var errorBuffer = [CChar](repeating: 0, count: 1024)
        let status = errorBuffer.withUnsafeMutableBufferPointer { buffer in
            ThreadRole.inCallback {
                if let config {
                    config.withCString { initialize(HostAPI.table, registrarHandle, $0, buffer.baseAddress, buffer.count) }
                } else {
                    initialize(HostAPI.table, registrarHandle, nil, buffer.baseAddress, buffer.count)
                }
            }
        }
        HandleRegistry.shared.remove(registrarHandle, as: RegistrarBox.self)
        guard status == 0 else {
            errorBuffer[errorBuffer.count - 1] = 0
            let reason = String(decoding: errorBuffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw failure("plugin \(name) failed to initialise (status \(status))" + (reason.isEmpty ? "" : ": \(reason)"))
        }
        return InterceptorPlugin(name: name, version: version, path: path, interceptors: registrar.interceptors)
    }

    private static func failure(_ message: String) -> CAPIFailure {
        CAPIFailure(COURIER_E_PLUGIN, message)
    }
}
