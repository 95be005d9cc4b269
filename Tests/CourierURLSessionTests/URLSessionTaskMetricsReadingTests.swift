import Foundation
import Testing

@testable import CourierURLSession

/// URLSession's transaction moments as `ResponseMetrics`, without a session: FoundationNetworking
/// never delivers `URLSessionTaskMetrics`, so the reading is pinned here on its own.
@Suite struct URLSessionTaskMetricsReadingTests {
    private let start = Date(timeIntervalSinceReferenceDate: 1_000)

    private func at(_ milliseconds: Int) -> Date { start.addingTimeInterval(Double(milliseconds) / 1000) }

    @Test func eachPhaseIsTheSpanBetweenTheMomentsThatBoundIt() {
        let moments = URLSessionTaskMetricsReading.Moments(
            fetchStart: at(0), domainLookupStart: at(2), domainLookupEnd: at(5), connectStart: at(5),
            secureConnectionStart: at(9), secureConnectionEnd: at(20), connectEnd: at(20), requestStart: at(21),
            requestEnd: at(22), responseStart: at(122), responseEnd: at(150))
        let metrics = URLSessionTaskMetricsReading.phases(of: moments)
        #expect(metrics.queued == .milliseconds(2))
        #expect(metrics.dnsLookup == .milliseconds(3))
        #expect(metrics.connect == .milliseconds(4))
        #expect(metrics.tlsHandshake == .milliseconds(11))
        #expect(metrics.requestSent == .milliseconds(1))
        #expect(metrics.waiting == .milliseconds(100))
        #expect(metrics.bodyTransfer == .milliseconds(28))
        #expect(metrics.total == .milliseconds(150))
    }

    @Test func aReusedConnectionHasNoLookupConnectOrHandshake() {
        let moments = URLSessionTaskMetricsReading.Moments(
            fetchStart: at(0), requestStart: at(1), requestEnd: at(2), responseStart: at(40), responseEnd: at(41))
        let metrics = URLSessionTaskMetricsReading.phases(of: moments)
        #expect(metrics.dnsLookup == nil && metrics.connect == nil && metrics.tlsHandshake == nil)
        #expect(metrics.queued == .milliseconds(1))
        #expect(metrics.waiting == .milliseconds(38))
    }

    @Test func protocolNamesAndTLSWireValuesAreSpelledAsTheOtherTransportsSpellThem() {
        #expect(URLSessionTaskMetricsReading.httpVersion(protocolName: "http/1.1") == "1.1")
        #expect(URLSessionTaskMetricsReading.httpVersion(protocolName: "h2") == "2")
        #expect(URLSessionTaskMetricsReading.httpVersion(protocolName: "h3") == "3")
        #expect(URLSessionTaskMetricsReading.httpVersion(protocolName: "spdy/3.1") == nil)
        #expect(URLSessionTaskMetricsReading.tlsVersion(wireValue: 0x0304) == "TLSv1.3")
        #expect(URLSessionTaskMetricsReading.tlsVersion(wireValue: 0x0303) == "TLSv1.2")
        #expect(URLSessionTaskMetricsReading.tlsVersion(wireValue: 0x7F1C) == nil)
    }
}
