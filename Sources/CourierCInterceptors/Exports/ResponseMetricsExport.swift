public import CCourier
package import Courier

@c @implementation
public func courier_response_metrics(
    _ response: OpaquePointer?, _ metrics: UnsafeMutablePointer<courier_metrics>?,
    _ error: UnsafeMutablePointer<OpaquePointer?>?
) -> courier_code {
    reporting(error) {
        let box = try responseBox(response)
        guard let metrics else { throw CAPIFailure.invalidArgument("metrics is NULL") }
        let filled = box.withLock { state in
            CMetrics.make(from: state.response.metrics, strings: state.borrowed.strings)
        }
        try ExtensibleStruct.write(
            filled, to: metrics, firstVersionSize: ExtensibleStruct.FirstVersionSize.metrics, name: "courier_metrics")
    }
}

/// `ResponseMetrics` as C reads it: microseconds as curl's, -1 for what was not measured.
enum CMetrics {
    static func make(from metrics: ResponseMetrics, strings: BorrowedStrings) -> courier_metrics {
        var filled = courier_metrics()
        filled.struct_size = MemoryLayout<courier_metrics>.size
        filled.queued_us = microseconds(metrics.queued)
        filled.dns_us = microseconds(metrics.dnsLookup)
        filled.connect_us = microseconds(metrics.connect)
        filled.tls_us = microseconds(metrics.tlsHandshake)
        filled.send_us = microseconds(metrics.requestSent)
        filled.wait_us = microseconds(metrics.waiting)
        filled.receive_us = microseconds(metrics.bodyTransfer)
        filled.total_us = microseconds(metrics.total)
        filled.redirect_us = microseconds(metrics.redirectTime)
        filled.redirect_count = Int64(metrics.redirectCount)
        filled.request_bytes = metrics.requestBytes ?? -1
        filled.response_bytes = metrics.responseBytes ?? -1
        filled.decoded_body_bytes = metrics.decodedBodyBytes ?? -1
        filled.reused_connection = metrics.reusedConnection.map { $0 ? 1 : 0 } ?? -1
        filled.remote_port = metrics.remotePort.map { Int32(clamping: $0) } ?? -1
        filled.remote_address = metrics.remoteAddress.map { strings.cString(.remoteAddress, $0) }
        filled.http_version = metrics.httpVersion.map { strings.cString(.httpVersion, $0) }
        filled.tls_version = metrics.tlsVersion.map { strings.cString(.tlsVersion, $0) }
        return filled
    }

    private static func microseconds(_ duration: Duration?) -> Int64 {
        guard let duration else { return -1 }
        let (seconds, attoseconds) = duration.components
        guard seconds < Int64.max / 1_000_000 - 1 else { return Int64.max }
        return seconds * 1_000_000 + attoseconds / 1_000_000_000_000
    }
}
