import Courier

/// The stage that puts `--auth` or `--bearer` on every request, so `--explain` shows it adding
/// `Authorization` and `--verbose` logs it redacted.
enum CredentialsStage {
    /// An `AuthenticationInterceptor` with `credentials` that never refreshes: a refused credential
    /// gives its 401 back to the user, as it does without the interceptor.
    static func interceptor(_ credentials: RequestFactory.Credentials) -> any Interceptor {
        var policy = AuthenticationInterceptor<RequestFactory.Credentials>.Policy()
        policy.refreshStatuses = []
        return AuthenticationInterceptor(credential: credentials, policy: policy,
                                         apply: { credentials, request in try credentials.authorization.scheme.authorize(&request) },
                                         refresh: { current in
                                             guard let current else {
                                                 throw CourierError(.authenticationFailed, "no credentials to send", source: "--auth")
                                             }
                                             return current
                                         })
    }
}
