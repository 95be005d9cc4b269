public import Courier
import Foundation

#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// The cache policy a transport should use; `nil` (the default) leaves it to the transport.
public enum CachePolicyOption: RequestOptionKey {
    public static let defaultValue: URLRequest.CachePolicy? = nil
}

/// The network service type hint; `nil` (the default) leaves it to the transport.
public enum NetworkServiceTypeOption: RequestOptionKey {
    public static let defaultValue: URLRequest.NetworkServiceType? = nil
}

/// Which kinds of network the request may use; all allowed by default.
public struct NetworkAccess: Sendable, Hashable {
    /// Cellular interfaces.
    public var cellular = true
    /// Networks the system considers expensive (cellular, personal hotspot).
    public var expensiveNetwork = true
    /// Networks in Low Data Mode.
    public var constrainedNetwork = true
    /// Networks the system considers ultra-constrained (satellite).
    public var ultraConstrainedNetwork = true

    /// All kinds allowed.
    public init() {}
}

/// The `NetworkAccess` policy of a request.
public enum NetworkAccessOption: RequestOptionKey {
    public static let defaultValue = NetworkAccess()
}

/// Sets the request's cache policy, a ``TransportHint`` that a `CacheInterceptor` in the chain
/// honours (as the `CacheMode` it maps to; see `CacheMode.init(_:)`). No transport's own cache
/// is on for Courier's requests, so without a `CacheInterceptor`, `Client.explaining()` reports
/// it as not applied. The `URLRequest` conversion carries it too.
public struct CachePolicy: RequestBuildable, Sendable {
    /// The policy.
    public let policy: URLRequest.CachePolicy

    /// Uses `policy`.
    public init(_ policy: URLRequest.CachePolicy) { self.policy = policy }

    public func apply(to draft: inout RequestDraft) throws {
        draft.options[CachePolicyOption.self] = policy
        draft.options[CacheModeOption.self] = CacheMode(policy)
        draft.options[TransportHintsOption.self].insert(.cachePolicy)
    }
}

extension CacheMode {
    /// The cache mode that does what `policy` asks of `URLCache`: `useProtocolCachePolicy` is the
    /// RFC, the two reloads fetch and store, `reloadRevalidatingCacheData` validates every use,
    /// `returnCacheDataElseLoad` takes a stored response of any age, and `returnCacheDataDontLoad`
    /// takes one or answers `504` without asking the origin.
    public init(_ policy: URLRequest.CachePolicy) {
        switch policy {
        case .useProtocolCachePolicy: self = .standard
        case .reloadIgnoringLocalCacheData, .reloadIgnoringLocalAndRemoteCacheData: self = .reload
        case .reloadRevalidatingCacheData: self = .revalidate
        case .returnCacheDataElseLoad: self = .preferCached
        case .returnCacheDataDontLoad: self = .onlyCached
        @unknown default: self = .standard
        }
    }
}

/// Sets the network service type (background, responsive data…), a ``TransportHint`` that
/// `URLSessionTransport` applies on Apple platforms.
public struct NetworkServiceType: RequestBuildable, Sendable {
    /// The service type.
    public let type: URLRequest.NetworkServiceType

    /// Uses `type`.
    public init(_ type: URLRequest.NetworkServiceType) { self.type = type }

    public func apply(to draft: inout RequestDraft) throws {
        draft.options[NetworkServiceTypeOption.self] = type
        draft.options[TransportHintsOption.self].insert(.networkServiceType)
    }
}

/// Whether the client's cookie jar adds stored cookies and stores received ones (every `Client`
/// applies it, on any transport); explicit `Cookie` blocks are always sent.
public struct HTTPShouldHandleCookies: RequestBuildable, Sendable {
    /// Whether cookies are handled.
    public let enabled: Bool

    /// Handles cookies when `enabled`.
    public init(_ enabled: Bool) { self.enabled = enabled }

    public func apply(to draft: inout RequestDraft) throws {
        draft.options[ShouldHandleCookiesOption.self] = enabled
        draft.options[TransportHintsOption.self].insert(.httpShouldHandleCookies)
    }
}

/// Allows or forbids kinds of network: `AllowAccess.cellular(false)`; `AllowAccess.cellular` alone allows.
///
/// Each is a ``TransportHint`` that `URLSessionTransport` applies on Apple platforms (the
/// ultra-constrained one where the SDK has it); on Linux only cellular access reaches `URLRequest`.
public struct AllowAccess: RequestBuildable, Sendable {
    private enum Kind: Sendable {
        case cellular, expensiveNetwork, constrainedNetwork, ultraConstrainedNetwork
    }

    private let kind: Kind
    /// Whether this kind of network is allowed.
    public let allowed: Bool

    private init(_ kind: Kind, allowed: Bool = true) {
        self.kind = kind
        self.allowed = allowed
    }

    public static let cellular = AllowAccess(.cellular)
    public static let expensiveNetwork = AllowAccess(.expensiveNetwork)
    public static let constrainedNetwork = AllowAccess(.constrainedNetwork)
    public static let ultraConstrainedNetwork = AllowAccess(.ultraConstrainedNetwork)

    /// The same kind of network, allowed or not: `AllowAccess.cellular(false)`.
    public func callAsFunction(_ allowed: Bool) -> AllowAccess { AllowAccess(kind, allowed: allowed) }

    private var hint: TransportHint {
        switch kind {
        case .cellular: .cellularAccess
        case .expensiveNetwork: .expensiveNetworkAccess
        case .constrainedNetwork: .constrainedNetworkAccess
        case .ultraConstrainedNetwork: .ultraConstrainedNetworkAccess
        }
    }

    public func apply(to draft: inout RequestDraft) throws {
        draft.options[TransportHintsOption.self].insert(hint)
        switch kind {
        case .cellular: draft.options[NetworkAccessOption.self].cellular = allowed
        case .expensiveNetwork: draft.options[NetworkAccessOption.self].expensiveNetwork = allowed
        case .constrainedNetwork: draft.options[NetworkAccessOption.self].constrainedNetwork = allowed
        case .ultraConstrainedNetwork: draft.options[NetworkAccessOption.self].ultraConstrainedNetwork = allowed
        }
    }
}
