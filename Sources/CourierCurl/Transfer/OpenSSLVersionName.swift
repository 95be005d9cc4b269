#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// OpenSSL's `SSL_get_version`, found at run time in the libssl libcurl loaded: libcurl does not
/// report the negotiated TLS version and Courier does not link OpenSSL itself.
///
/// Looked up in the global scope first (a program linked with libcurl), then by the path of a
/// loaded libssl (a library opened with `RTLD_LOCAL`, as Python's cffi opens libcourier, or a
/// wheel's renamed copy, neither of which the global scope sees). `nil` where libcurl uses
/// another TLS library or links OpenSSL statically.
enum OpenSSLVersionName {
    typealias Function = @convention(c) (UnsafeMutableRawPointer?) -> UnsafePointer<CChar>?

    static let function: Function? = {
        if let symbol = dlsym(nil, "SSL_get_version") { return unsafeBitCast(symbol, to: Function.self) }
        for path in loadedLibSSLPaths() {
            guard let library = dlopen(path, RTLD_LAZY | RTLD_NOLOAD) else { continue }
            // Never closed: the handle only adds a reference to a library libcurl keeps loaded.
            if let symbol = dlsym(library, "SSL_get_version") { return unsafeBitCast(symbol, to: Function.self) }
        }
        return nil
    }()

    /// The paths of the process's mapped files named `libssl*.so*`, from `/proc/self/maps`.
    private static func loadedLibSSLPaths() -> [String] {
        guard let maps = try? String(contentsOfFile: "/proc/self/maps", encoding: .utf8) else { return [] }
        var paths: [String] = []
        for line in maps.split(separator: "\n") {
            guard let slash = line.firstIndex(of: "/") else { continue }
            let path = String(line[slash...])
            let name = path.split(separator: "/").last ?? ""
            if name.hasPrefix("libssl"), name.contains(".so"), !paths.contains(path) { paths.append(path) }
        }
        return paths
    }
}
