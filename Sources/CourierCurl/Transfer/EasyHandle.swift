import CCurl
import Courier

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One curl easy handle and its error buffer; used by one thread at a time: the I/O thread, or a
/// blocking caller's own while it drives a transfer (`CurlDrivenSession`).
///
/// A handle gets the options that never change for its transport once, when it is made
/// (`init(configuration:)`); each transfer then sets only its own (URL, method, headers,
/// timeouts, callback data), and handles are kept on a short free list for the next transfer
/// without `curl_easy_reset`. The connections they used stay in the multi handle's pool either way.
final class EasyHandle {
    let raw: UnsafeMutableRawPointer
    private let errorBuffer: UnsafeMutablePointer<CChar>
    /// Whether the last transfer set `CURLOPT_CUSTOMREQUEST`, which outlives it unless cleared.
    var hasCustomRequest = false
    /// What the last transfer asked of compression, so an unchanged setting is not set again.
    var requestsDecoding: Bool?
    /// The proxy the last transfer went through (`nil`: direct), so an unchanged route is not set again.
    private var proxy: ProxyServer?
    /// The Unix socket the last transfer went over (`nil`: TCP), so an unchanged one is not set again.
    private var unixSocketPath: String?
    /// The public-key pins the last transfer's host had, as curl takes them (`nil`: none).
    private(set) var pinnedPublicKeys: String?
    /// The `CURLOPT_RESOLVE` and `CURLOPT_CONNECT_TO` lists of the transport's routes, which curl
    /// reads for as long as the handle lives.
    private var routeLists: [UnsafeMutablePointer<curl_slist>] = []
    /// The timeouts the last transfer set (`nil`: none yet), so unchanged ones are neither set again
    /// nor converted to milliseconds again (`Duration.components` divides 128-bit numbers).
    private var timeouts: (total: Duration?, connect: Duration)?

    /// Makes a handle with the transport's constant options and the response callbacks set.
    init(configuration: CurlTransport.Configuration) throws(CurlOptionError) {
        guard let raw = curl_easy_init() else { throw CurlOptionError(code: CURLE_OUT_OF_MEMORY, option: CURLOPT_URL) }
        self.raw = raw
        errorBuffer = .allocate(capacity: Int(ccurl_error_size))
        errorBuffer.initialize(to: 0)
        try set(CURLOPT_ERRORBUFFER, pointer: errorBuffer)
        try set(CURLOPT_PROTOCOLS_STR, "http,https")
        try set(CURLOPT_NOSIGNAL, 1)
        try set(CURLOPT_FOLLOWLOCATION, 0)
        try set(CURLOPT_SUPPRESS_CONNECT_HEADERS, 1)
        try set(CURLOPT_BUFFERSIZE, configuration.receiveBufferSize)
        // "" turns off curl's own reading of the proxy variables: `ProxyRouter` has decided the
        // route of each transfer already, the same way for every transport. That includes
        // `no_proxy`, which curl would otherwise read (two `getenv`s per transfer) and apply to a
        // proxy the router chose.
        try set(CURLOPT_PROXY, "")
        try set(CURLOPT_NOPROXY, "")
        for (option, entries) in [
            (CURLOPT_RESOLVE, configuration.routes.filter { if case .addresses = $0.target { true } else { false } }),
            (CURLOPT_CONNECT_TO, configuration.routes.filter { if case .host = $0.target { true } else { false } }),
        ] where !entries.isEmpty {
            var list: UnsafeMutablePointer<curl_slist>?
            for entry in entries {
                guard let longer = curl_slist_append(list, entry.description) else {
                    curl_slist_free_all(list)
                    throw CurlOptionError(code: CURLE_OUT_OF_MEMORY, option: option)
                }
                list = longer
            }
            if let list { routeLists.append(list) }
            try check(ccurl_easy_setopt_slist(raw, option, list), option)
        }
        try configuration.apply(to: self)
    }

    deinit {
        curl_easy_cleanup(raw)
        routeLists.forEach { curl_slist_free_all($0) }
        errorBuffer.deallocate()
    }

    /// Sends the next transfer through `proxy`, or direct when `nil`. The credentials go in their
    /// own options rather than the URL, so curl never has them in a proxy URL it might report.
    func route(through proxy: ProxyServer?) throws(CurlOptionError) {
        guard proxy != self.proxy else { return }
        try set(CURLOPT_PROXY, proxy?.address ?? "")
        if let username = proxy?.username {
            try set(CURLOPT_PROXYUSERNAME, username)
        } else {
            try set(CURLOPT_PROXYUSERNAME, pointer: nil)
        }
        if let password = proxy?.password {
            try set(CURLOPT_PROXYPASSWORD, password)
        } else {
            try set(CURLOPT_PROXYPASSWORD, pointer: nil)
        }
        self.proxy = proxy
    }

    /// Sends the next transfer over the Unix domain socket at `path`, or over TCP when `nil`.
    func connect(overUnixSocket path: String?) throws(CurlOptionError) {
        guard path != unixSocketPath else { return }
        if let path {
            try set(CURLOPT_UNIX_SOCKET_PATH, path)
        } else {
            try set(CURLOPT_UNIX_SOCKET_PATH, pointer: nil)
        }
        unixSocketPath = path
    }

    /// Checks the next transfer's server key against `pins` (`sha256//…`), or against none when
    /// empty; set only when it changed. curl keeps a connection made under other pins apart.
    func pin(publicKeys pins: [String]) throws(CurlOptionError) {
        let joined = pins.isEmpty ? nil : pins.joined(separator: ";")
        guard joined != pinnedPublicKeys else { return }
        if let joined {
            try set(CURLOPT_PINNEDPUBLICKEY, joined)
        } else {
            try set(CURLOPT_PINNEDPUBLICKEY, pointer: nil)
        }
        pinnedPublicKeys = joined
    }

    /// Sets the total timeout (`nil`: none) and the connect timeout, each only when it changed.
    func setTimeouts(total: Duration?, connect: Duration) throws(CurlOptionError) {
        if timeouts == nil || timeouts?.total != total {
            try set(CURLOPT_TIMEOUT_MS, total?.curlMilliseconds ?? 0)
        }
        if timeouts == nil || timeouts?.connect != connect {
            try set(CURLOPT_CONNECTTIMEOUT_MS, connect.curlMilliseconds)
        }
        timeouts = (total, connect)
    }

    /// Forgets the last transfer's error text; called before each transfer.
    func clearErrorDetail() {
        errorBuffer[0] = 0
    }

    /// The detailed error text curl wrote for the last failure, if any.
    var errorDetail: String {
        String(cString: errorBuffer).trimmingSuffix { $0 == "\n" }
    }

    func set(_ option: CURLoption, _ value: Int) throws(CurlOptionError) {
        try check(ccurl_easy_setopt_long(raw, option, value), option)
    }

    func set(_ option: CURLoption, offset value: Int64) throws(CurlOptionError) {
        try check(ccurl_easy_setopt_offset(raw, option, curl_off_t(value)), option)
    }

    func set(_ option: CURLoption, _ value: String) throws(CurlOptionError) {
        try check(ccurl_easy_setopt_string(raw, option, value), option)
    }

    func set(_ option: CURLoption, pointer value: UnsafeMutableRawPointer?) throws(CurlOptionError) {
        try check(ccurl_easy_setopt_pointer(raw, option, value), option)
    }

    func set(headers: UnsafeMutablePointer<curl_slist>?) throws(CurlOptionError) {
        try check(ccurl_easy_setopt_slist(raw, CURLOPT_HTTPHEADER, headers), CURLOPT_HTTPHEADER)
    }

    func set(_ option: CURLoption, callback: ccurl_data_callback) throws(CurlOptionError) {
        try check(ccurl_easy_setopt_data_callback(raw, option, callback), option)
    }

    func set(sockopt callback: curl_sockopt_callback) throws(CurlOptionError) {
        try check(ccurl_easy_setopt_sockopt_callback(raw, callback), CURLOPT_SOCKOPTFUNCTION)
    }

    func set(closeSocket callback: curl_closesocket_callback) throws(CurlOptionError) {
        try check(ccurl_easy_setopt_closesocket_callback(raw, callback), CURLOPT_CLOSESOCKETFUNCTION)
    }

    func set(progress callback: ccurl_xferinfo_callback) throws(CurlOptionError) {
        try check(ccurl_easy_setopt_xferinfo_callback(raw, callback), CURLOPT_XFERINFOFUNCTION)
    }

    func info(_ info: CURLINFO) -> Int {
        var value = 0
        return ccurl_easy_getinfo_long(raw, info, &value) == CURLE_OK ? value : 0
    }

    func info(offset info: CURLINFO) -> Int64 {
        var value: curl_off_t = 0
        return ccurl_easy_getinfo_offset(raw, info, &value) == CURLE_OK ? Int64(value) : 0
    }

    /// A string info as curl holds it, valid until the next transfer on this handle; `nil` when
    /// curl has none.
    func info(borrowedString info: CURLINFO) -> UnsafePointer<CChar>? {
        var value: UnsafePointer<CChar>?
        return ccurl_easy_getinfo_string(raw, info, &value) == CURLE_OK ? value : nil
    }

    private func check(_ code: CURLcode, _ option: CURLoption) throws(CurlOptionError) {
        guard code == CURLE_OK else { throw CurlOptionError(code: code, option: option) }
    }
}

/// curl refused an option (not built in, or an invalid value).
struct CurlOptionError: Error {
    var code: CURLcode
    var option: CURLoption

    var message: String {
        "curl refused option \(option.rawValue): \(String(cString: curl_easy_strerror(code)))"
    }
}

extension String {
    fileprivate func trimmingSuffix(while predicate: (Character) -> Bool) -> String {
        var text = self
        while let last = text.last, predicate(last) { text.removeLast() }
        return text
    }
}
