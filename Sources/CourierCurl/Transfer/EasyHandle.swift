import CCurl
import Courier

/// One curl easy handle and its error buffer; used on the I/O thread only.
///
/// Handles are kept on a short free list and reset before reuse (those libcurl would refuse a new
/// transfer's options on are dropped instead); the connections they used stay in the multi handle's pool either way.
final class EasyHandle {
    let raw: UnsafeMutableRawPointer
    private let errorBuffer: UnsafeMutablePointer<CChar>

    init?() {
        guard let raw = curl_easy_init() else { return nil }
        self.raw = raw
        errorBuffer = .allocate(capacity: Int(ccurl_error_size))
        errorBuffer.initialize(to: 0)
    }

    deinit {
        curl_easy_cleanup(raw)
        errorBuffer.deallocate()
    }

    /// Clears every option, then points curl's error text at this handle's buffer again.
    func reset() {
        curl_easy_reset(raw)
        errorBuffer[0] = 0
        _ = ccurl_easy_setopt_pointer(raw, CURLOPT_ERRORBUFFER, errorBuffer)
    }

    /// Clears every option and tells whether the handle can take another transfer.
    ///
    /// libcurl 7.88 frees a transfer's receive buffer only when no other transfer still uses its
    /// connection; a handle whose transfer ended beside other HTTP/2 streams keeps the buffer until
    /// `curl_easy_cleanup` and refuses `CURLOPT_BUFFERSIZE` from then on, so it must not be reused.
    func resetForReuse(receiveBufferSize: Int) -> Bool {
        reset()
        return ccurl_easy_setopt_long(raw, CURLOPT_BUFFERSIZE, receiveBufferSize) == CURLE_OK
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
