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

/// The user's preferred languages as language tags, most preferred first, for `AcceptLanguage()`.
///
/// On Apple platforms, `Locale.preferredLanguages`. Elsewhere read as gettext reads them: the
/// locale for messages is the first of `LC_ALL`, `LC_MESSAGES` and `LANG` that is set; when it is
/// `C` or `POSIX` (or none is set) there is no preference, and `LANGUAGE` is ignored, as gettext
/// ignores it then; otherwise `LANGUAGE`'s colon-separated list when set, else that locale.
/// `de_DE.UTF-8@euro` becomes `de-DE`.
enum PreferredLanguages {
    static func current() -> [String] {
        #if canImport(Darwin)
        return Locale.preferredLanguages
        #else
        return fromEnvironment { name in getenv(name).map { String(cString: $0) } }
        #endif
    }

    static func fromEnvironment(_ variable: (String) -> String?) -> [String] {
        func set(_ name: String) -> String? { variable(name).flatMap { $0.isEmpty ? nil : $0 } }
        guard let locale = set("LC_ALL") ?? set("LC_MESSAGES") ?? set("LANG"), !isPOSIX(locale) else { return [] }
        let listed = set("LANGUAGE").map { $0.split(separator: ":").map(String.init) } ?? [locale]
        var tags: [String] = []
        for entry in listed where !isPOSIX(entry) {
            let tag = tag(of: entry)
            if !tag.isEmpty, !tags.contains(tag) { tags.append(tag) }
        }
        return tags
    }

    /// `de_DE.UTF-8@euro` → `de-DE`.
    static func tag(of locale: String) -> String {
        let withoutModifier = locale.split(separator: "@", maxSplits: 1).first.map(String.init) ?? ""
        let withoutCodeset = withoutModifier.split(separator: ".", maxSplits: 1).first.map(String.init) ?? ""
        return withoutCodeset.replacing("_", with: "-")
    }

    private static func isPOSIX(_ locale: String) -> Bool {
        let name = tag(of: locale)
        return name == "C" || name == "POSIX"
    }
}
