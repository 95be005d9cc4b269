import CCourier
import Courier
import CourierCInterceptors
import CourierCurl
import Synchronization

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One send from C: the client, the request with the caller's options applied, and the pipeline
/// run that produces the response C receives.
///
/// `@unchecked Sendable` for the caller's C callbacks and their `user_data` pointer, which Swift
/// cannot check. The invariant, from courier.h: the caller keeps `user_data` valid until the send
/// completes and accepts calls from the threads the header names for each callback; the
/// operation never dereferences it, only passes it back.
struct SendOperation: @unchecked Sendable {
    let client: Client
    let request: Request
    private let onData: courier_data_fn?
    private let onHead: courier_head_fn?
    private let userData: UnsafeMutableRawPointer?
    /// The caller's `should_cancel`, for a blocking send to ask while it waits.
    let shouldCancel: (@Sendable () -> Bool)?
    /// Whether the options hand the response to callbacks (`on_data`, `on_head`).
    var handsResponseToCallbacks: Bool { onData != nil || onHead != nil }

    init(
        client: Client, request: Request, options: UnsafePointer<courier_send_options>?,
        in function: StaticString = #function
    ) throws {
        var request = request
        var onData: courier_data_fn?
        var onHead: courier_head_fn?
        var userData: UnsafeMutableRawPointer?
        var shouldCancel: (@Sendable () -> Bool)?
        if let pointer = options {
            var defaults = courier_send_options()
            courier_send_options_init(&defaults)
            let options = try ExtensibleStruct.read(
                pointer, over: defaults,
                firstVersionSize: ExtensibleStruct.FirstVersionSize.sendOptions,
                name: "courier_send_options", in: function)
            onData = options.on_data
            onHead = options.on_head
            userData = options.user_data
            if let check = options.should_cancel {
                let call = UncheckedBox((check, options.user_data))
                shouldCancel = {
                    let (check, userData) = call.value
                    return ThreadRole.inCallback { check(userData) } != 0
                }
            }
            if let onProgress = options.on_progress {
                let progress = ProgressReporter(callback: onProgress, userData: userData)
                request.options[UploadProgressOption.self] = { sent, total in progress.sent(sent, of: total) }
                request.options[DownloadProgressOption.self] = { received, total in
                    progress.received(received, of: total)
                }
            }
        }
        self.client = client
        self.request = request
        self.onData = onData
        self.onHead = onHead
        self.userData = userData
        self.shouldCancel = shouldCancel
    }

    /// Sends the request; hands the head to `on_head` when set; with `on_data`, streams the body to
    /// it and returns the head with an empty body.
    ///
    /// - Parameter drivingCurlHere: the caller's thread blocks until the send is done (a blocking
    ///   send), so a curl transport may run the transfer on it rather than on its I/O thread,
    ///   when the body is collected whole anyway (no `on_data` or `on_head`).
    func run(drivingCurlHere: Bool = false) async throws -> Response {
        guard onData != nil || onHead != nil else {
            guard drivingCurlHere else { return try await client.send(request) }
            let driving = CurlCallerDriving(
                maxBodyBytes: client.configuration.limits.maxBodyBytes, shouldCancel: shouldCancel)
            return try await CurlCallerDriving.$current.withValue(driving) { try await client.send(request) }
        }
        return try await runStreaming()
    }

    /// A send with `on_head` or `on_data`: the head delivered as it arrives, and the body in chunks
    /// when asked. A function of its own, so that a plain send's frame, held while it is in flight,
    /// does not carry the stream's state.
    private func runStreaming() async throws -> Response {
        var response = try await client.stream(request)
        if let onHead { try deliverHead(response, to: onHead) }
        guard let onData else {
            return try await response.collectingBody(upTo: client.configuration.limits.maxBodyBytes)
        }
        guard let stream = response.bodyStream else { return response }
        response.bodyStream = nil
        var received: Int64 = 0
        for try await chunk in stream {
            received += Int64(chunk.count)
            let verdict = chunk.withUnsafeBytes { bytes in
                ThreadRole.inCallback { onData(userData, bytes.baseAddress, bytes.count) }
            }
            guard verdict == 0 else {
                throw CourierError(
                    .cancelled, "the on_data callback stopped the download (returned \(verdict))",
                    request: request, response: response)
            }
        }
        response.completeMetrics(from: stream, bodyBytes: received)
        return response
    }
}

extension SendOperation {
    /// Calls `on_head` with a handle to the head that is valid for the call only.
    private func deliverHead(_ response: Response, to onHead: courier_head_fn) throws {
        var head = response
        head.bodyStream = nil
        guard let handle = HandleRegistry.shared.register(ResponseBox(head)) else {
            throw CAPIFailure(COURIER_E_INTERNAL, "too many live handles")
        }
        let verdict = ThreadRole.inCallback { onHead(userData, handle) }
        _ = HandleRegistry.shared.remove(handle, as: ResponseBox.self)
        guard verdict == 0 else {
            throw CourierError(
                .cancelled, "the on_head callback stopped the send (returned \(verdict))", request: request,
                response: head)
        }
    }
}

/// Combines the core's separate upload and download progress into the one C callback.
///
/// `@unchecked Sendable` for the C callback and its `user_data`, which the caller keeps valid until
/// the send completes (courier.h, `on_progress`); the counts are behind their lock.
private final class ProgressReporter: @unchecked Sendable {
    private let callback: courier_progress_fn
    private let userData: UnsafeMutableRawPointer?
    private let counts = Protected((sent: Int64(0), sendTotal: Int64(-1), received: Int64(0), receiveTotal: Int64(-1)))

    init(callback: courier_progress_fn, userData: UnsafeMutableRawPointer?) {
        self.callback = callback
        self.userData = userData
    }

    func sent(_ bytes: Int64, of total: Int64?) {
        report(
            counts.withLock { counts in
                counts.sent = bytes
                counts.sendTotal = total ?? -1
                return counts
            })
    }

    func received(_ bytes: Int64, of total: Int64?) {
        report(
            counts.withLock { counts in
                counts.received = bytes
                counts.receiveTotal = total ?? -1
                return counts
            })
    }

    private func report(_ counts: (sent: Int64, sendTotal: Int64, received: Int64, receiveTotal: Int64)) {
        ThreadRole.inCallback {
            callback(userData, counts.sent, counts.sendTotal, counts.received, counts.receiveTotal)
        }
    }
}
