package import CCourier
package import Courier

#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Opens plugin libraries and runs their init, each failure a `COURIER_E_PLUGIN` that says which step failed.
package enum PluginLoader {
    package static func load(path: String, config: String?, defaultTimeout: Duration?) throws -> InterceptorPlugin {
        // dlopen searches the loader's path (LD_LIBRARY_PATH, the cache, /lib…) for a name without
        // a slash, so the file checked here and the one loaded could differ: such names are refused.
        guard path.contains("/") else {
            throw failure(
                "the plugin path \(path) has no slash, so dlopen would search the system's library path for it; "
                    + "write ./\(path) for the file in the current directory, or give its full path")
        }
        guard case .file = RegularFile.kind(atPath: path) else {
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
        let infoPointer = infoSymbol.assumingMemoryBound(to: courier_plugin_metadata.self)
        let infoBytes = UnsafeRawPointer(infoPointer)
        let infoSize = infoBytes.load(as: Int.self)
        guard infoSize >= ExtensibleStruct.FirstVersionSize.pluginMetadata else {
            throw failure("\(path): \(COURIER_PLUGIN_INFO_SYMBOL).struct_size is \(infoSize), too small")
        }
        // The ABI version before the rest: another major may lay out even this struct differently.
        let abiMajor = infoBytes.load(fromByteOffset: 8, as: UInt32.self)
        let abiMinor = infoBytes.load(fromByteOffset: 12, as: UInt32.self)
        guard abiMajor == UInt32(COURIER_ABI_MAJOR) else {
            throw failure(
                "\(path) was built for Courier ABI \(abiMajor).\(abiMinor); "
                    + "this host has ABI \(COURIER_ABI_MAJOR).\(COURIER_ABI_MINOR)")
        }
        let info: courier_plugin_metadata
        do {
            info = try ExtensibleStruct.read(
                infoPointer, over: courier_plugin_metadata(),
                firstVersionSize: ExtensibleStruct.FirstVersionSize.pluginMetadata,
                name: COURIER_PLUGIN_INFO_SYMBOL, in: path)
        } catch let refused as CAPIFailure {
            throw failure(refused.message)
        }
        guard let namePointer = info.name, let name = String(validatingCString: namePointer), !name.isEmpty,
            let versionPointer = info.version, let version = String(validatingCString: versionPointer)
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
                    config.withCString {
                        initialize(HostAPI.table, registrarHandle, $0, buffer.baseAddress, buffer.count)
                    }
                } else {
                    initialize(HostAPI.table, registrarHandle, nil, buffer.baseAddress, buffer.count)
                }
            }
        }
        HandleRegistry.shared.remove(registrarHandle, as: RegistrarBox.self)
        guard status == 0 else {
            errorBuffer[errorBuffer.count - 1] = 0
            let reason = String(decoding: errorBuffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw failure(
                "plugin \(name) failed to initialise (status \(status))" + (reason.isEmpty ? "" : ": \(reason)"))
        }
        return InterceptorPlugin(name: name, version: version, path: path, interceptors: registrar.interceptors)
    }

    private static func failure(_ message: String) -> CAPIFailure {
        CAPIFailure(COURIER_E_PLUGIN, message)
    }
}
