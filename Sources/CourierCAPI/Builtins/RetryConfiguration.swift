import CCourier
import Courier
import CourierCInterceptors
import HTTPTypes

/// The JSON configuration of the built-in `retry` interceptor: `RetryInterceptor.Policy` and its
/// budget, in snake case, every member optional (the Swift defaults otherwise).
struct RetryConfiguration: Decodable {
    var name: String?
    var policy = RetryInterceptor.Policy()
    var budget = RetryBudget()

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case name
        case maxAttempts = "max_attempts"
        case initialBackoffMilliseconds = "initial_backoff_ms"
        case maxBackoffMilliseconds = "max_backoff_ms"
        case backoffMultiplier = "backoff_multiplier"
        case jitter
        case statuses
        case errors
        case methods
        case honoursRetryAfter = "honour_retry_after"
        case maxRetryAfterMilliseconds = "max_retry_after_ms"
        case addsIdempotencyKey = "add_idempotency_key"
        case budget
    }

    /// The error names `errors` takes: courier_code's names without `COURIER_E_`, in lower case.
    static let errorNames: [String: courier_code] = [
        "cannot_connect": COURIER_E_CANNOT_CONNECT, "timed_out": COURIER_E_TIMED_OUT,
        "invalid_response": COURIER_E_INVALID_RESPONSE, "insecure": COURIER_E_INSECURE,
    ]

    init() {}

    init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownMembers(besides: CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decodeIfPresent(String.self, forKey: .name)
        if let attempts = try container.decodeIfPresent(Int.self, forKey: .maxAttempts) {
            try Self.require(attempts >= 1, .maxAttempts, in: container, "must be 1 or more")
            policy.maxAttempts = attempts
        }
        if let initial = try container.decodeIfPresent(Int.self, forKey: .initialBackoffMilliseconds) {
            try Self.require(initial >= 0, .initialBackoffMilliseconds, in: container, "must not be negative")
            policy.backoff.initial = .milliseconds(initial)
        }
        if let maximum = try container.decodeIfPresent(Int.self, forKey: .maxBackoffMilliseconds) {
            try Self.require(maximum >= 0, .maxBackoffMilliseconds, in: container, "must not be negative")
            policy.backoff.maximum = .milliseconds(maximum)
        }
        if let multiplier = try container.decodeIfPresent(Double.self, forKey: .backoffMultiplier) {
            try Self.require(
                multiplier >= 1 && multiplier.isFinite, .backoffMultiplier, in: container, "must be 1 or more")
            policy.backoff.multiplier = multiplier
        }
        if let jitter = try container.decodeIfPresent(String.self, forKey: .jitter) {
            switch jitter {
            case "full": policy.backoff.jitter = .full
            case "equal": policy.backoff.jitter = .equal
            case "none": policy.backoff.jitter = .none
            default:
                try Self.require(
                    false, .jitter, in: container, "must be \"full\", \"equal\" or \"none\", not \"\(jitter)\"")
            }
        }
        if let statuses = try container.decodeIfPresent([Int].self, forKey: .statuses) {
            try Self.require(
                statuses.allSatisfy { (100...599).contains($0) }, .statuses, in: container,
                "must hold status codes from 100 to 599")
            policy.retryableStatuses = Set(statuses)
        }
        if let errors = try container.decodeIfPresent([String].self, forKey: .errors) {
            var codes = Set<CourierError.Code>()
            for error in errors {
                guard let code = Self.errorNames[error] else {
                    let names = Self.errorNames.keys.sorted().joined(separator: ", ")
                    throw DecodingError.dataCorruptedError(
                        forKey: .errors, in: container,
                        debugDescription: "unknown error \"\(error)\" (known: \(names))")
                }
                codes.insert(CAPIFailure.courierCode(for: code))
            }
            policy.retryableErrors = codes
        }
        if let methods = try container.decodeIfPresent([String].self, forKey: .methods) {
            policy.idempotentMethods = Set(
                try methods.map { method in
                    guard let parsed = HTTPRequest.Method(method) else {
                        throw DecodingError.dataCorruptedError(
                            forKey: .methods, in: container,
                            debugDescription: "\"\(method)\" is not an HTTP method")
                    }
                    return parsed
                })
        }
        if let honours = try container.decodeIfPresent(Bool.self, forKey: .honoursRetryAfter) {
            policy.honoursRetryAfter = honours
        }
        if let longest = try container.decodeIfPresent(Int.self, forKey: .maxRetryAfterMilliseconds) {
            try Self.require(longest >= 0, .maxRetryAfterMilliseconds, in: container, "must not be negative")
            policy.maxRetryAfter = .milliseconds(longest)
        }
        if let adds = try container.decodeIfPresent(Bool.self, forKey: .addsIdempotencyKey) {
            policy.addsIdempotencyKey = adds
        }
        if container.contains(.budget) {
            budget = try container.decode(BudgetConfiguration.self, forKey: .budget).budget
        }
    }

    private static func require(
        _ condition: Bool, _ key: CodingKeys, in container: KeyedDecodingContainer<CodingKeys>,
        _ message: String
    ) throws {
        if !condition { throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: message) }
    }
}

/// `"budget"`: `"unlimited"`, or `{"max_tokens": 10, "deposit_per_request": 0.2}` (`RetryBudget`).
private struct BudgetConfiguration: Decodable {
    let budget: RetryBudget

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case maxTokens = "max_tokens"
        case depositPerRequest = "deposit_per_request"
    }

    init(from decoder: any Decoder) throws {
        if let word = try? decoder.singleValueContainer().decode(String.self) {
            guard word == "unlimited" else {
                throw DecodingError.dataCorrupted(
                    DecodingError.Context(
                        codingPath: decoder.codingPath,
                        debugDescription: "must be \"unlimited\" or an object, not \"\(word)\""))
            }
            budget = .unlimited
            return
        }
        try decoder.refuseUnknownMembers(besides: CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = RetryBudget()
        let maxTokens = try container.decodeIfPresent(Double.self, forKey: .maxTokens) ?? defaults.maxTokens
        let deposit =
            try container.decodeIfPresent(Double.self, forKey: .depositPerRequest) ?? defaults.depositPerRequest
        guard maxTokens >= 0, deposit >= 0 else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: decoder.codingPath,
                    debugDescription: "max_tokens and deposit_per_request must not be negative"))
        }
        budget = RetryBudget(maxTokens: maxTokens, depositPerRequest: deposit)
    }
}
