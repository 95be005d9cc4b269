import Courier

/// The process exit codes, HTTPie's: scripts tell a timeout from a 404 without parsing output.
public enum ExitStatus: Int32, Sendable, CaseIterable {
    /// The exchange completed (any status, unless `--check-status` is given).
    case success = 0
    /// A usage error, a request that could not be built or sent, a `--plugin` that could not be
    /// loaded, or any other failure.
    case error = 1
    /// The request timed out.
    case timedOut = 2
    /// `--check-status` (or `--download`) and a 3xx response that was not followed.
    case redirection = 3
    /// `--check-status` (or `--download`) and a 4xx response.
    case clientError = 4
    /// `--check-status` (or `--download`) and a 5xx response.
    case serverError = 5
    /// More redirects than `--max-redirects` allows.
    case tooManyRedirects = 6

    /// The status `--check-status` gives a response status code: 0 for 1xx and 2xx, 3, 4 or 5 otherwise.
    public static func checking(statusCode: Int) -> ExitStatus {
        switch statusCode {
        case 300..<400: .redirection
        case 400..<500: .clientError
        case 500...: .serverError
        default: .success
        }
    }

    /// The status for an error that ended the exchange.
    public static func failing(with error: any Error) -> ExitStatus {
        guard let error = error as? CourierError else { return .error }
        switch error.code {
        case .timedOut: return .timedOut
        case .tooManyRedirects: return .tooManyRedirects
        default: return .error
        }
    }

    /// The table `--help` and docs/cli.md show.
    public static let table = """
        EXIT STATUS:
          0  success (any HTTP status unless --check-status is given)
          1  usage error, bad request item, a --plugin that cannot be loaded,
             or the request failed (no connection…)
          2  the request timed out
          3  --check-status: a 3xx response that was not followed
          4  --check-status: a 4xx response
          5  --check-status: a 5xx response
          6  more redirects than --max-redirects
        """
}
