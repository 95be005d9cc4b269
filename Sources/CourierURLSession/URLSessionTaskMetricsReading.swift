import Courier
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Security)
import Security
#endif

/// Reads URLSession's own measurements (`URLSessionTaskMetrics`, delivered to the delegate before
/// the task completes) into `ResponseMetrics`: on Apple platforms every phase and the
/// connection's facts. FoundationNetworking on Linux declares the type but never delivers it, so
/// there the exchange's own clock gives the body phase and the total alone.
enum URLSessionTaskMetricsReading {
    /// The moments of one transaction, as `URLSessionTaskTransactionMetrics` names them.
    struct Moments: Equatable {
        var fetchStart: Date?
        var domainLookupStart: Date?
        var domainLookupEnd: Date?
        var connectStart: Date?
        var secureConnectionStart: Date?
        var secureConnectionEnd: Date?
        var connectEnd: Date?
        var requestStart: Date?
        var requestEnd: Date?
        var responseStart: Date?
        var responseEnd: Date?
    }

    /// The last transaction of `metrics` (the one that produced the response: URLSession follows
    /// no redirect for Courier) as `ResponseMetrics`; `nil` when it has none from the network.
    static func read(_ metrics: URLSessionTaskMetrics) -> ResponseMetrics? {
        guard let transaction = metrics.transactionMetrics.last, transaction.resourceFetchType == .networkLoad else {
            return nil
        }
        var read = phases(
            of: Moments(
                fetchStart: transaction.fetchStartDate, domainLookupStart: transaction.domainLookupStartDate,
                domainLookupEnd: transaction.domainLookupEndDate, connectStart: transaction.connectStartDate,
                secureConnectionStart: transaction.secureConnectionStartDate,
                secureConnectionEnd: transaction.secureConnectionEndDate, connectEnd: transaction.connectEndDate,
                requestStart: transaction.requestStartDate, requestEnd: transaction.requestEndDate,
                responseStart: transaction.responseStartDate, responseEnd: transaction.responseEndDate))
        read.reusedConnection = transaction.isReusedConnection
        read.httpVersion = transaction.networkProtocolName.flatMap(httpVersion(protocolName:))
        if #available(macOS 10.15, iOS 13, tvOS 13, watchOS 6, *) {
            read.remoteAddress = transaction.remoteAddress
            read.remotePort = port(transaction.remotePort)
            read.tlsVersion = transaction.negotiatedTLSProtocolVersion.flatMap { tlsVersion(wireValue: $0.rawValue) }
            read.requestBytes = transaction.countOfRequestHeaderBytesSent + transaction.countOfRequestBodyBytesSent
            read.responseBytes =
                transaction.countOfResponseHeaderBytesReceived + transaction.countOfResponseBodyBytesReceived
            read.decodedBodyBytes = transaction.countOfResponseBodyBytesAfterDecoding
        }
        return read
    }

    /// Each phase between the moments that bound it; a phase with either moment missing is `nil`
    /// (a reused connection has no lookup, connect or handshake moments).
    static func phases(of moments: Moments) -> ResponseMetrics {
        var metrics = ResponseMetrics()
        let firstNetworkStep = moments.domainLookupStart ?? moments.connectStart ?? moments.requestStart
        metrics.queued = between(moments.fetchStart, firstNetworkStep)
        metrics.dnsLookup = between(moments.domainLookupStart, moments.domainLookupEnd)
        metrics.connect = between(moments.connectStart, moments.secureConnectionStart ?? moments.connectEnd)
        metrics.tlsHandshake = between(moments.secureConnectionStart, moments.secureConnectionEnd)
        metrics.requestSent = between(moments.requestStart, moments.requestEnd)
        metrics.waiting = between(moments.requestEnd, moments.responseStart)
        metrics.bodyTransfer = between(moments.responseStart, moments.responseEnd)
        metrics.total = between(moments.fetchStart, moments.responseEnd)
        return metrics
    }

    /// `http/1.1` → `1.1`, `h2` → `2`, `h3` → `3`, as `ResponseMetrics.httpVersion` spells them.
    static func httpVersion(protocolName: String) -> String? {
        switch protocolName.lowercased() {
        case "http/1.0": "1.0"
        case "http/1.1": "1.1"
        case "h2", "h2c": "2"
        case "h3": "3"
        default: nil
        }
    }

    /// A TLS version's wire value (RFC 8446's `0x0304`) as OpenSSL names it (`TLSv1.3`).
    static func tlsVersion(wireValue: UInt16) -> String? {
        switch wireValue {
        case 0x0301: "TLSv1"
        case 0x0302: "TLSv1.1"
        case 0x0303: "TLSv1.2"
        case 0x0304: "TLSv1.3"
        default: nil
        }
    }

    /// The port as Apple's Foundation declares it.
    private static func port(_ port: Int?) -> Int? { port }

    /// The port as FoundationNetworking declares it (text).
    private static func port(_ port: String?) -> Int? { port.flatMap { Int($0) } }

    private static func between(_ start: Date?, _ end: Date?) -> Duration? {
        guard let start, let end, end >= start else { return nil }
        return .nanoseconds(Int64((end.timeIntervalSince(start) * 1_000_000_000).rounded()))
    }
}
