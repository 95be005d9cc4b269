import CCurl
import Courier

/// A transfer's `ResponseMetrics`, read from curl's `CURLINFO_*` times (microseconds since the
/// transfer's start, each the end of its phase) and connection facts.
///
/// With libcurl before 8.10 the end of sending is not recorded: `requestSent` is then `nil` and
/// `waiting` runs from the start of sending. Before 8.6 the time queued is not either.
enum CurlMetrics {
    /// What `easy` has measured, written into `metrics` (in place: a response's metrics are
    /// written where they live, not copied there); `complete` when the transfer has ended (the
    /// body's phase, the total and the byte counts are then known). `decodedBytes` is the body
    /// after content decoding, `tlsVersion` what `tlsVersion(of:)` read while the transfer held
    /// its connection.
    static func read(
        from easy: EasyHandle, into metrics: inout ResponseMetrics, complete: Bool, decodedBytes: Int64?,
        tlsVersion: String?
    ) {
        func time(_ info: CURLINFO) -> Int64 {
            info == CURLINFO_NONE ? -1 : easy.info(offset: info)
        }
        // Phases go in as microseconds, never through `Duration`: see `ResponseMetrics.record`.
        func phase(from start: Int64, to end: Int64) -> Int64 {
            start >= 0 && end >= start ? end - start : -1
        }
        let queued = time(ccurl_info_queue_time)
        metrics.record(.queued, microseconds: queued)
        let reused = easy.info(CURLINFO_NUM_CONNECTS) == 0
        metrics.reusedConnection = reused
        // A reused connection had no lookup, connect or handshake: their times are not read.
        if !reused {
            let namelookup = time(CURLINFO_NAMELOOKUP_TIME_T)
            let connected = time(CURLINFO_CONNECT_TIME_T)
            let handshaken = time(CURLINFO_APPCONNECT_TIME_T)
            metrics.record(.dnsLookup, microseconds: phase(from: max(0, queued), to: namelookup))
            metrics.record(.connect, microseconds: phase(from: namelookup, to: connected))
            if handshaken > 0 { metrics.record(.tlsHandshake, microseconds: phase(from: connected, to: handshaken)) }
        }
        let pretransfer = time(CURLINFO_PRETRANSFER_TIME_T)
        let posttransfer = time(ccurl_info_posttransfer_time)
        let firstByte = time(CURLINFO_STARTTRANSFER_TIME_T)
        if posttransfer > 0 {
            metrics.record(.requestSent, microseconds: phase(from: pretransfer, to: posttransfer))
            metrics.record(.waiting, microseconds: phase(from: posttransfer, to: firstByte))
        } else {
            metrics.record(.waiting, microseconds: phase(from: pretransfer, to: firstByte))
        }
        metrics.remoteIPAddress = easy.info(borrowedString: CURLINFO_PRIMARY_IP).flatMap(IPAddress.init(cString:))
        let port = easy.info(CURLINFO_PRIMARY_PORT)
        metrics.remotePort = port > 0 ? port : nil
        recordHTTPVersion(easy.info(CURLINFO_HTTP_VERSION), in: &metrics)
        metrics.tlsVersion = tlsVersion
        guard complete else { return }
        let total = time(CURLINFO_TOTAL_TIME_T)
        metrics.record(.total, microseconds: total)
        metrics.record(.bodyTransfer, microseconds: phase(from: firstByte, to: total))
        metrics.requestBytes = Int64(easy.info(CURLINFO_REQUEST_SIZE)) + easy.info(offset: CURLINFO_SIZE_UPLOAD_T)
        let downloaded = easy.info(offset: CURLINFO_SIZE_DOWNLOAD_T)
        metrics.responseBytes = Int64(easy.info(CURLINFO_HEADER_SIZE)) + downloaded
        metrics.decodedBodyBytes = decodedBytes ?? downloaded
    }

    /// The TLS version `easy`'s connection negotiated (`TLSv1.3`), as OpenSSL names it: read while
    /// the transfer holds its connection (when its head arrives), since a finished transfer has
    /// handed the connection back and libcurl then reports no TLS session.
    static func tlsVersion(of easy: EasyHandle) -> String? {
        guard let session = ccurl_openssl_session(easy.raw), let versionName = OpenSSLVersionName.function,
            let name = versionName(session)
        else { return nil }
        let version = String(cString: name)
        return version.hasPrefix("TLS") ? version : nil
    }

    /// `CURLINFO_HTTP_VERSION`'s answer, recorded as numbers rather than parsed text.
    private static func recordHTTPVersion(_ version: Int, in metrics: inout ResponseMetrics) {
        switch version {
        case CURL_HTTP_VERSION_1_0: metrics.recordHTTPVersion(major: 1, minor: 0)
        case CURL_HTTP_VERSION_1_1: metrics.recordHTTPVersion(major: 1, minor: 1)
        case CURL_HTTP_VERSION_2_0: metrics.recordHTTPVersion(major: 2, minor: 0)
        case CURL_HTTP_VERSION_3: metrics.recordHTTPVersion(major: 3, minor: 0)
        default: break
        }
    }
}
