public import Courier

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Why a curl command line could not become a ``Request``; each case names what it could not take.
public enum CurlImportError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The command does not run curl (its first word).
    case notACurlCommand(String)
    /// A curl option Courier does not import, with what to do instead when there is something.
    case unsupportedOption(String, reason: String)
    /// An option that needs a value came last.
    case missingValue(option: String)
    /// No URL was given.
    case missingURL
    /// More than one URL: curl would send several requests.
    case multipleURLs([String])
    /// A URL that is not an absolute http or https URL.
    case invalidURL(String)
    /// A URL with `[…]` or `{…}` and no `--globoff`: curl would expand it into several requests.
    case urlGlobbing(String)
    /// A header that is not `Name: value`, or whose name or value HTTP does not allow.
    case invalidHeader(String)
    /// A file named by `@file` or `<file` that cannot be read.
    case unreadableFile(String)
    /// Shell syntax the importer does not evaluate (expansions, redirections, other commands).
    case unsupportedShellSyntax(String)
    /// A quote that is never closed.
    case unterminatedQuote(String)

    public var description: String {
        switch self {
        case .notACurlCommand(let word): "not a curl command: it runs \(word.isEmpty ? "nothing" : "`\(word)`")"
        case .unsupportedOption(let option, let reason): "curl's \(option) is not imported: \(reason)"
        case .missingValue(let option): "curl's \(option) needs a value"
        case .missingURL: "the curl command has no URL"
        case .multipleURLs(let urls):
            "the curl command has \(urls.count) URLs (\(urls.joined(separator: ", "))); import one request at a time"
        case .invalidURL(let url): "\(url) is not an absolute http or https URL"
        case .urlGlobbing(let url):
            "\(url) uses curl's URL globbing ([…] or {…}), which sends several requests; add --globoff to send it as written"
        case .invalidHeader(let line): "not a valid header line: \(line)"
        case .unreadableFile(let path): "cannot read \(path)"
        case .unsupportedShellSyntax(let what): "the command uses shell syntax that is not imported: \(what)"
        case .unterminatedQuote(let quote): "a \(quote) quote is never closed"
        }
    }
}
