import HTTPTypes

/// Adds languages to `Accept-Language`, with RFC 9110 quality weights.
///
/// `AcceptLanguage("en-US", "en", "fr")` writes `en-US, en;q=0.9, fr;q=0.8`: each language after
/// the first gets a weight 0.1 lower, as browsers send. Several blocks accumulate into one line.
public struct AcceptLanguage: RequestBuildable, Sendable {
    let entries: [(language: String, quality: Double?)]

    /// Languages in order of preference, weighted 1, 0.9, 0.8 … (never below 0.1).
    public init(_ languages: String...) {
        self.init(inOrder: languages)
    }

    /// The user's preferred languages, in order, weighted 1, 0.9, 0.8 …: `Locale.preferredLanguages`
    /// on Apple platforms, the gettext variables elsewhere (`LANGUAGE`, then the locale of
    /// `LC_ALL`, `LC_MESSAGES` or `LANG`; none for `C`/`POSIX`). No preference adds no header.
    public init() {
        self.init(inOrder: PreferredLanguages.current())
    }

    /// The languages the gettext variables in `environment` name, weighted as `init()` weighs them:
    /// what `init()` reads from the process on Linux, from a dictionary so tests need not change
    /// the process environment that tests running in parallel share.
    init(gettextEnvironment environment: [String: String]) {
        self.init(inOrder: PreferredLanguages.fromEnvironment { environment[$0] })
    }

    private init(inOrder languages: [String]) {
        self.entries = languages.enumerated().map { index, language in
            (language, index == 0 ? nil : max(0.1, 1 - Double(index) / 10))
        }
    }

    /// One language with an explicit weight.
    public init(_ language: String, quality: Double) {
        self.entries = [(language, quality)]
    }

    public func apply(to draft: inout RequestDraft) throws {
        for entry in entries {
            guard !entry.language.isEmpty,
                entry.language.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "*") })
            else {
                throw CourierError.invalidRequest(
                    "\"\(entry.language.debugEscaped)\" is not a language tag", block: "AcceptLanguage")
            }
            let value = try QualityValue.append(entry.quality, to: entry.language, block: "AcceptLanguage")
            try draft.addHeader(.acceptLanguage, value, block: "AcceptLanguage")
        }
    }
}
