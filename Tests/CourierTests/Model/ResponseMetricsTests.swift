import Testing

@testable import Courier

@Suite("ResponseMetrics")
struct ResponseMetricsTests {
    /// Compiles only for plain data: a response's metrics copy without touching a reference count.
    private func requirePlainData<Value: BitwiseCopyable>(_: Value.Type) -> Int { MemoryLayout<Value>.size }

    @Test func metricsArePlainDataThatCopiesWithoutReferenceCounting() {
        #expect(requirePlainData(ResponseMetrics.self) <= 128)
        #expect(requirePlainData(IPAddress.self) == 17)
    }

    @Test func unmeasuredFieldsAreNilNeverZero() {
        let metrics = ResponseMetrics()
        #expect(metrics.phases.allSatisfy { $0.duration == nil })
        #expect(metrics.total == nil && metrics.redirectTime == nil)
        #expect(metrics.remoteAddress == nil && metrics.remotePort == nil)
        #expect(metrics.httpVersion == nil && metrics.tlsVersion == nil && metrics.reusedConnection == nil)
        #expect(metrics.requestBytes == nil && metrics.responseBytes == nil && metrics.decodedBodyBytes == nil)
        #expect(!metrics.hasTotal)
    }

    @Test func phasesRecordedAsRawNumbersReadBackAsDurations() {
        var metrics = ResponseMetrics()
        metrics.record(.connect, microseconds: 1500)
        metrics.record(.waiting, nanoseconds: 2_000_000)
        metrics.record(.redirects, nanoseconds: 7)
        metrics.record(.dnsLookup, nanoseconds: -5)
        #expect(metrics.connect == .microseconds(1500))
        #expect(metrics.waiting == .milliseconds(2))
        #expect(metrics.redirectTime == .nanoseconds(7))
        #expect(metrics.dnsLookup == nil)
        metrics.total = .seconds(3)
        #expect(metrics.hasTotal && metrics.total == .seconds(3))
        metrics.total = nil
        #expect(!metrics.hasTotal)
    }

    @Test func remoteAddressIsKeptAsAnAddressAndPrintedCanonically() {
        var metrics = ResponseMetrics()
        metrics.remoteAddress = "127.0.0.1"
        #expect(metrics.remoteAddress == "127.0.0.1")
        metrics.remoteAddress = "0:0:0:0:0:0:0:1"
        #expect(metrics.remoteAddress == "::1")
        metrics.remoteAddress = "2001:db8::ff00:42:8329"
        #expect(metrics.remoteAddress == "2001:db8::ff00:42:8329")
        metrics.remoteAddress = "example.com"
        #expect(metrics.remoteAddress == nil)
        metrics.remotePort = 443
        #expect(metrics.remotePort == 443)
    }

    @Test func addressesParseFromCStringsAndCompareByFamilyAndBytes() {
        let v4 = "10.1.2.3".withCString { IPAddress(cString: $0) }
        #expect(v4?.family == .v4 && v4?.bytes == [10, 1, 2, 3])
        #expect(IPAddress("::ffff:10.1.2.3")?.family == .v6)
        #expect(IPAddress("::ffff:10.1.2.3") != v4)
        #expect(IPAddress("[::1]") == nil && IPAddress("") == nil)
        #expect(IPAddress("::1")?.bytes == Array(repeating: 0, count: 15) + [1])
    }

    @Test func versionsAreTheNamedOnesOnly() {
        var metrics = ResponseMetrics()
        for version in ["1.0", "1.1", "2", "3"] {
            metrics.httpVersion = version
            #expect(metrics.httpVersion == version)
        }
        metrics.httpVersion = "0.9"
        #expect(metrics.httpVersion == nil)
        metrics.recordHTTPVersion(major: 1, minor: 1)
        #expect(metrics.httpVersion == "1.1")
        metrics.recordHTTPVersion(major: 2, minor: 0)
        #expect(metrics.httpVersion == "2")
        for version in ["TLSv1", "TLSv1.1", "TLSv1.2", "TLSv1.3"] {
            metrics.tlsVersion = version
            #expect(metrics.tlsVersion == version)
        }
        metrics.tlsVersion = "SSLv3"
        #expect(metrics.tlsVersion == nil)
    }

    @Test func completingKeepsTheRedirectsTheClientMeasured() {
        var head = ResponseMetrics()
        head.redirectCount = 2
        head.record(.redirects, nanoseconds: 40)
        var final = ResponseMetrics()
        final.record(.total, nanoseconds: 90)
        final.remoteAddress = "::1"
        head.complete(with: final)
        #expect(head.redirectCount == 2 && head.redirectTime == .nanoseconds(40))
        #expect(head.total == .nanoseconds(90) && head.remoteAddress == "::1")
    }
}
