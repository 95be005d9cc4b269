import Courier

/// The stage that puts `--auth` or `--bearer` on every request, so `--explain` shows it adding
/// `Authorization` and `--verbose` logs it redacted.
enum CredentialsStage {
    /// An interceptor that authorizes each request with `credentials`. It never refreshes: a
    /// refused credential gives its 401 back to the user, as it does without the interceptor.
    static func interceptor(_ credentials: RequestFactory.Credentials) -> any Interceptor {
        ClosureInterceptor("AuthenticationInterceptor") { request, _, next in
            var request = request
            try credentials.authorization.scheme.authorize(&request)
            return try await next(request)
        }
    }
}
