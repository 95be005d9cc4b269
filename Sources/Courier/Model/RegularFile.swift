#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What `stat(2)` says of a path Courier reads a body from or loads a plugin from.
///
/// `FileManager`'s attributes are typed differently under full Foundation and FoundationEssentials
/// (a size is an `NSNumber` in one and a `UInt` in the other), so a check written against one
/// quietly fails under the other; `stat` is the same everywhere.
package enum RegularFile {
    /// What a path names.
    package enum Kind: Equatable {
        /// Nothing, or nothing this process may look at.
        case missing
        /// A regular file of this many bytes.
        case file(size: Int64)
        /// A directory, a device, a socket…
        case other
    }

    /// What `path` names, following symbolic links.
    package static func kind(atPath path: String) -> Kind {
        var info = stat()
        guard stat(path, &info) == 0 else { return .missing }
        guard (info.st_mode & S_IFMT) == S_IFREG else { return .other }
        return .file(size: Int64(info.st_size))
    }

    /// Whether `path` is a regular file this process may read.
    package static func isReadable(atPath path: String) -> Bool {
        guard case .file = kind(atPath: path) else { return false }
        return access(path, R_OK) == 0
    }
}
