public import CCourier
import Courier
import CourierCInterceptors
import CourierCurl

@c @implementation
public func courier_client_options_init(_ options: UnsafeMutablePointer<courier_client_options>?) {
    guard let options else { return }
    var defaults = courier_client_options()
    defaults.transport = COURIER_TRANSPORT_CURL
    defaults.timeout_ms = 60_000
    defaults.connect_timeout_ms = 10_000
    defaults.follow_redirects = 1
    defaults.max_redirects = 10
    defaults.max_body_bytes = Int64(Limits().maxBodyBytes)
    defaults.verify_tls = 1
    defaults.callback_threads = 2
    // Every field added after ABI 1.0 defaults to 0 or NULL, which the header's inline _init has set.
    ExtensibleStruct.initialize(
        options, with: defaults, firstVersionSize: ExtensibleStruct.FirstVersionSize.clientOptions)
}

@c @implementation
public func courier_client_new(
    _ options: UnsafePointer<courier_client_options>?,
    _ client: UnsafeMutablePointer<OpaquePointer?>?,
    _ error: UnsafeMutablePointer<OpaquePointer?>?
) -> courier_code {
    reporting(error) {
        guard let client else { throw CAPIFailure.invalidArgument("client is NULL") }
        var settings = courier_client_options()
        courier_client_options_init(&settings)
        if let options {
            settings = try ExtensibleStruct.read(
                options, over: settings,
                firstVersionSize: ExtensibleStruct.FirstVersionSize.clientOptions,
                name: "courier_client_options")
        }
        client.pointee = try register(ClientOptions(settings).makeClient())
    }
}

@c @implementation
public func courier_client_free(_ client: OpaquePointer?) -> courier_code {
    guard let client else { return COURIER_OK }
    guard let box = HandleRegistry.shared.remove(client, as: ClientBox.self) else { return COURIER_E_INVALID_HANDLE }
    guard box.forkGeneration == ForkGeneration.current else {
        // Made before the fork that made this process: its threads are the parent's and gone, its
        // connections the parent's. Closing would wait for them, or close the parent's sockets.
        ForkGeneration.setAside(box)
        return COURIER_OK
    }
    box.close()
    return COURIER_OK
}

@c @implementation
public func courier_client_save_cookies(
    _ client: OpaquePointer?, _ error: UnsafeMutablePointer<OpaquePointer?>?
) -> courier_code {
    reporting(error) {
        try clientBox(client).saveCookies()
    }
}

@c @implementation
public func courier_client_cookies(
    _ client: OpaquePointer?, _ buffer: UnsafeMutablePointer<CChar>?, _ capacity: Int,
    _ length: UnsafeMutablePointer<Int>?, _ error: UnsafeMutablePointer<OpaquePointer?>?
) -> courier_code {
    reporting(error) {
        let text = try clientBox(client).cookieJar().netscapeText
        let needed = text.utf8.count
        try CInput.store(needed, into: length, "length")
        guard buffer != nil || capacity == 0 else { throw CAPIFailure.invalidArgument("buffer is NULL") }
        guard let buffer, capacity > 0 else { return }
        guard needed < capacity else {
            buffer[0] = 0
            throw CAPIFailure(
                COURIER_E_LIMIT_EXCEEDED,
                detail: "the cookies need \(needed + 1) bytes with the NUL; the buffer has \(capacity)")
        }
        text.withCString { buffer.update(from: $0, count: needed + 1) }
    }
}

@c @implementation
public func courier_client_add_cookies(
    _ client: OpaquePointer?, _ netscape: UnsafePointer<CChar>?, _ error: UnsafeMutablePointer<OpaquePointer?>?
) -> courier_code {
    reporting(error) {
        let jar = try clientBox(client).cookieJar()
        let text = try CInput.string(netscape, "netscape")
        do {
            try jar.insert(netscapeText: text)
        } catch let malformed as NetscapeCookieText.MalformedLine {
            throw CAPIFailure.invalidArgument("\(malformed)")
        }
    }
}

@c @implementation
public func courier_client_remove_cookies(
    _ client: OpaquePointer?, _ domain: UnsafePointer<CChar>?, _ path: UnsafePointer<CChar>?,
    _ name: UnsafePointer<CChar>?, _ removed: UnsafeMutablePointer<Int>?,
    _ error: UnsafeMutablePointer<OpaquePointer?>?
) -> courier_code {
    reporting(error) {
        let jar = try clientBox(client).cookieJar()
        let count = jar.remove(
            domain: try CInput.optionalString(domain, "domain"), path: try CInput.optionalString(path, "path"),
            name: try CInput.optionalString(name, "name"))
        if let removed { removed.pointee = count }
    }
}

@c @implementation
public func courier_client_completion_fd(
    _ client: OpaquePointer?, _ fd: UnsafeMutablePointer<Int32>?,
    _ error: UnsafeMutablePointer<OpaquePointer?>?
) -> courier_code {
    reporting(error) {
        let queue = try completionQueue(of: clientBox(client))
        try CInput.store(queue.fileDescriptor, into: fd, "fd")
    }
}

@c @implementation
public func courier_client_run_completions(
    _ client: OpaquePointer?, _ ran: UnsafeMutablePointer<Int>?,
    _ error: UnsafeMutablePointer<OpaquePointer?>?
) -> courier_code {
    reporting(error) {
        let queue = try completionQueue(of: clientBox(client))
        guard !ThreadRole.isInsideCallback else {
            throw CAPIFailure(COURIER_E_WOULD_BLOCK, detail: "completions cannot be run from inside a Courier callback")
        }
        let count = queue.runWaiting()
        ran?.pointee = count
    }
}

/// The client's completion queue, or a failure saying it was made without one.
private func completionQueue(of box: ClientBox, in function: StaticString = #function) throws -> CompletionQueue {
    guard let queue = box.completionQueue else {
        throw CAPIFailure.invalidArgument("the client was not created with queue_completions = 1", in: function)
    }
    return queue
}

/// Looks up a client handle or fails naming the function: `COURIER_E_FORKED` for a client made
/// before the fork that made this process (see `ForkGeneration`), touching nothing of it.
func clientBox(_ handle: OpaquePointer?, in function: StaticString = #function) throws -> ClientBox {
    guard let box = HandleRegistry.shared.object(handle, as: ClientBox.self) else {
        throw CAPIFailure.invalidHandle("client", in: function)
    }
    if let refusal = ForkGeneration.refusal(madeIn: box.forkGeneration, what: "the client") {
        throw CAPIFailure(refusal, in: "\(function)")
    }
    return box
}
