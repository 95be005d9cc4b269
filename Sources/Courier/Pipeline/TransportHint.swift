/// A request setting that only some transports can act on: the seeds' `URLRequest` properties
/// (cache policy, network service type, cellular and expensive-network access), which a
/// URLSession on an Apple platform applies and libcurl has no notion of.
///
/// The blocks that set one (`CachePolicy`, `NetworkServiceType`, `AllowAccess.*`…) record it in
/// ``Request/transportHints``; each transport lists the hints it applies in
/// ``Transport/appliedHints``, and `Client.explaining()` names every hint the transport that sent
/// the request left unapplied, so none is dropped unseen.
public struct TransportHint: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The name of the block that sets the hint (`CachePolicy`, `AllowAccess.cellular`).
    public let rawValue: String

    /// A hint named after the block that sets it.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// `CachePolicy(_:)`: which cached response the transport's own cache may answer with.
    public static let cachePolicy = TransportHint(rawValue: "CachePolicy")
    /// `NetworkServiceType(_:)`: the kind of traffic, for the system's scheduling of radios and queues.
    public static let networkServiceType = TransportHint(rawValue: "NetworkServiceType")
    /// `HTTPShouldHandleCookies(_:)`: whether stored cookies are sent and received cookies stored.
    /// Every `Client` applies it to its own cookie jar, whatever the transport.
    public static let httpShouldHandleCookies = TransportHint(rawValue: "HTTPShouldHandleCookies")
    /// `AllowAccess.cellular(_:)`.
    public static let cellularAccess = TransportHint(rawValue: "AllowAccess.cellular")
    /// `AllowAccess.expensiveNetwork(_:)`.
    public static let expensiveNetworkAccess = TransportHint(rawValue: "AllowAccess.expensiveNetwork")
    /// `AllowAccess.constrainedNetwork(_:)`.
    public static let constrainedNetworkAccess = TransportHint(rawValue: "AllowAccess.constrainedNetwork")
    /// `AllowAccess.ultraConstrainedNetwork(_:)`.
    public static let ultraConstrainedNetworkAccess = TransportHint(rawValue: "AllowAccess.ultraConstrainedNetwork")

    /// The hints a `Client` applies itself, below the interceptors, on every transport.
    public static let appliedByClient: Set<TransportHint> = [.httpShouldHandleCookies]

    public static func < (lhs: TransportHint, rhs: TransportHint) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String { rawValue }
}

/// The transport hints a request's blocks set (``Request/transportHints``).
public enum TransportHintsOption: RequestOptionKey {
    public static let defaultValue: Set<TransportHint> = []
}

/// Whether the client's cookie jar adds stored cookies to the request and stores the cookies its
/// response sets (`HTTPShouldHandleCookies(false)` turns both off); explicit `Cookie` blocks are always sent.
public enum ShouldHandleCookiesOption: RequestOptionKey {
    public static let defaultValue = true
}

extension Request {
    /// The transport hints this request's blocks set, whichever transport sends it.
    public var transportHints: Set<TransportHint> { options[TransportHintsOption.self] }

    /// The hints in this request that neither `transport` nor the client applies, in name order:
    /// what `Client.explaining()` reports for the send.
    public func hintsIgnored(by transport: any Transport) -> [TransportHint] {
        let hints = transportHints
        guard !hints.isEmpty else { return [] }
        return hints.subtracting(transport.appliedHints).subtracting(TransportHint.appliedByClient).sorted()
    }
}
