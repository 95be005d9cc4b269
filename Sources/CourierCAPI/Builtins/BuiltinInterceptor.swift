import Courier
import CourierCInterceptors
import Logging

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The interceptors of the Swift core that C and the languages binding it add by name and a JSON
/// configuration (`courier_client_add_builtin`), so that a C, plugin or Python chain can hold
/// Courier's own retry, logging, validation, concurrency limit, Digest authentication and HTTP
/// cache beside its callbacks.
enum BuiltinInterceptor: String, CaseIterable {
    case retry
    case logging
    case validation
    case concurrencyLimit = "concurrency_limit"
    case digestAuth = "digest_auth"
    case cache

    /// The kinds as C spells them, for error messages.
    static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }

    /// The interceptor `configuration` (a JSON object; `nil` for the defaults) describes, named by
    /// its `name` member or after its kind.
    func make(configuration: String?) throws(BuiltinConfigurationError) -> any Interceptor {
        switch self {
        case .retry:
            let settings = try decode(RetryConfiguration.self, from: configuration) ?? RetryConfiguration()
            return NamedInterceptor(
                name: settings.name ?? rawValue,
                wrapped: RetryInterceptor(policy: settings.policy, budget: settings.budget))
        case .logging:
            let settings = try decode(LoggingConfiguration.self, from: configuration) ?? LoggingConfiguration()
            let writer: LogLineWriter
            do {
                writer = try LogLineWriter(settings.destination)
            } catch {
                throw BuiltinConfigurationError(kind: self, message: error.message)
            }
            let logging = LoggingInterceptor(
                logger: writer.logger(level: settings.level), level: .info,
                redaction: settings.redaction, logsCurlCommand: settings.logsCurlCommand,
                maxLoggedBodyBytes: settings.maxLoggedBodyBytes)
            return NamedInterceptor(name: settings.name ?? rawValue, wrapped: logging)
        case .validation:
            let settings = try decode(ValidationConfiguration.self, from: configuration) ?? ValidationConfiguration()
            return NamedInterceptor(
                name: settings.name ?? rawValue,
                wrapped: ValidationInterceptor(statuses: settings.statuses, contentTypes: settings.contentTypes))
        case .concurrencyLimit:
            let settings =
                try decode(ConcurrencyLimitConfiguration.self, from: configuration) ?? ConcurrencyLimitConfiguration()
            let limit = ConcurrencyLimitInterceptor(
                maxConcurrentRequests: settings.maxRequests,
                maxConcurrentRequestsPerHost: settings.maxRequestsPerHost,
                holdsSlotUntilBodyIsRead: settings.holdsSlotUntilBodyIsRead)
            return NamedInterceptor(name: settings.name ?? rawValue, wrapped: limit)
        case .digestAuth:
            guard let settings = try decode(DigestAuthConfiguration.self, from: configuration) else {
                throw BuiltinConfigurationError(kind: self, message: "user and password are required")
            }
            return NamedInterceptor(
                name: settings.name ?? rawValue,
                wrapped: DigestAuthenticationInterceptor(user: settings.user, password: settings.password))
        case .cache:
            let settings = try decode(CacheConfiguration.self, from: configuration) ?? CacheConfiguration()
            return NamedInterceptor(
                name: settings.name ?? rawValue, wrapped: CacheInterceptor(storage: settings.storage))
        }
    }

    private func decode<Settings: Decodable>(
        _ type: Settings.Type, from configuration: String?
    )
        throws(BuiltinConfigurationError) -> Settings?
    {
        guard let configuration, !configuration.allSatisfy(\.isWhitespace) else { return nil }
        do {
            let settings = try JSONDecoder().decode(Settings.self, from: Data(configuration.utf8))
            if let name = DuplicateMemberCheck.firstDuplicate(in: configuration) {
                throw BuiltinConfigurationError(kind: self, message: "\(name): given twice")
            }
            return settings
        } catch let error as BuiltinConfigurationError {
            throw error
        } catch let error as DecodingError {
            throw BuiltinConfigurationError(kind: self, message: error.configurationMessage)
        } catch {
            throw BuiltinConfigurationError(kind: self, message: "\(error)")
        }
    }
}

/// A configuration that was not valid JSON, named an unknown option, or gave an option a value
/// it cannot take.
struct BuiltinConfigurationError: Error {
    let kind: BuiltinInterceptor
    let message: String
}

/// A built-in interceptor under the name C gave it, so `courier_client_remove_interceptor`,
/// errors and `explain` use that name.
struct NamedInterceptor: Interceptor {
    let name: String
    let wrapped: any Interceptor

    func intercept(_ request: Request, context: InterceptorContext, next: Next) async throws -> Response {
        try await wrapped.intercept(request, context: context, next: next)
    }
}
