// swift_stamp: a Courier plugin written in Swift.
//
// It sets `X-Swift-Stamp: <value> attempt=<n>` on every request, where <value> is the config
// string (default "swift") and <n> the pass number, to show a Swift plugin reading and editing
// the exchange through the host's function table. Swift exports the C function
// `courier_plugin_init` with `@c`; the `courier_plugin_info` data symbol, which Swift cannot
// export, comes from info.c, linked into the same shared object (see the Makefile).
import CCourier

/// The host's functions, handed to init; valid for the life of the process.
nonisolated(unsafe) private var host: UnsafePointer<courier_host_api>?

/// Sets the X-Swift-Stamp header on the exchange's request; `userData` is the stamp's C string.
private func stamp(_ userData: UnsafeMutableRawPointer?, _ exchange: OpaquePointer?) -> courier_action {
    guard let api = host?.pointee, let userData else { return COURIER_ACTION_FAIL }
    var request: OpaquePointer?
    var attempt: Int32 = 0
    guard api.exchange_request(exchange, &request, nil) == COURIER_OK,
          api.exchange_attempt(exchange, &attempt, nil) == COURIER_OK
    else {
        _ = api.exchange_fail(exchange, COURIER_E_INTERCEPTOR, "swift-stamp: cannot read the exchange", nil)
        return COURIER_ACTION_FAIL
    }
    let value = String(cString: userData.assumingMemoryBound(to: CChar.self))
    guard api.request_set_header(request, "X-Swift-Stamp", "\(value) attempt=\(attempt)", nil) == COURIER_OK else {
        _ = api.exchange_fail(exchange, COURIER_E_INTERCEPTOR, "swift-stamp: cannot set the header", nil)
        return COURIER_ACTION_FAIL
    }
    return COURIER_ACTION_CONTINUE
}

/// A NUL-terminated copy of `text` that the interceptor owns until its destroy callback.
private func cString(_ text: String) -> UnsafeMutablePointer<CChar> {
    let bytes = Array(text.utf8CString)
    let copy = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count)
    copy.initialize(from: bytes, count: bytes.count)
    return copy
}

/// Writes `message` into the host's error buffer, truncated to fit with its NUL.
private func report(_ message: String, into errbuf: UnsafeMutablePointer<CChar>?, capacity: Int) {
    guard let errbuf, capacity > 0 else { return }
    let bytes = Array(message.utf8CString.dropLast().prefix(capacity - 1))
    errbuf.update(from: bytes, count: bytes.count)
    errbuf[bytes.count] = 0
}

/// Registers the stamp interceptor; the config string, when given, is the stamp's text.
@c public func courier_plugin_init(
    _ api: UnsafePointer<courier_host_api>?,
    _ registrar: OpaquePointer?,
    _ config: UnsafePointer<CChar>?,
    _ errbuf: UnsafeMutablePointer<CChar>?,
    _ errbufLength: Int
) -> Int32 {
    guard let api else { return 1 }
    host = api
    let value = cString(config.map { String(cString: $0) } ?? "swift")
    var interceptor = courier_interceptor()
    api.pointee.interceptor_init(&interceptor)
    interceptor.on_request = { userData, exchange in stamp(userData, exchange) }
    interceptor.user_data = UnsafeMutableRawPointer(value)
    interceptor.destroy = { userData in userData?.assumingMemoryBound(to: CChar.self).deallocate() }
    let code = "swift-stamp".withCString { name in
        interceptor.name = name
        return api.pointee.register_interceptor(registrar, &interceptor, nil)
    }
    guard code == COURIER_OK else {
        value.deallocate()
        report("swift-stamp: registration failed (code \(code.rawValue))", into: errbuf, capacity: errbufLength)
        return 1
    }
    return 0
}
