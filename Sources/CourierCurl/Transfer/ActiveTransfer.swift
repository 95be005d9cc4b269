import CCurl
import Courier
import HTTPTypes

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The driving thread's side of one transfer: its easy handle, header list, head parser, phase,
/// pause flags and first failure. Every member is used on the thread driving the transfer only, from
/// the loop or from curl's callbacks, which curl runs on that thread: inside `curl_multi_socket_action`
/// and `curl_easy_pause` on the I/O thread, or inside `curl_multi_perform` on a blocking caller's own
/// (`CurlDrivenSession`).
///
/// curl's callbacks reach this object through an unretained pointer; the loop's table of active
/// transfers (or the driving session's call) keeps it alive from `curl_multi_add_handle` until after
/// `curl_multi_remove_handle`. Its phase, from `send`'s wait to the body's end, is a `TransferState`.
///
/// Its stored state skips the runtime's exclusivity checks (`@exclusivity(unchecked)`), as the
/// loop driver's does: one thread uses it, and the checks of the two cost about 1,900 instructions
/// per request (callgrind, `Benchmarks/scripts/instructions.sh`), 1.5% of a request's.
final class ActiveTransfer {
    typealias State = TransferState<ResponseWaiter, ResponseBodyStream, ResponseBodyStream.Writer>

    let transfer: CurlTransfer
    let easy: EasyHandle
    private let loop: CurlLoop
    /// Where the transfer is between `send`'s wait and its end: `send`'s waiter, the head waiting
    /// for the end of its round, the body kept or streaming.
    ///
    /// A body kept with its head is bytes rather than `Data`: valgrind reported the `Data` storage
    /// of a transfer still running when a C program exited as definitely lost, most likely because
    /// `Data` may keep its storage behind a pointer with tag bits that valgrind does not follow; an
    /// array's buffer it does.
    @exclusivity(unchecked) private var state: State
    /// The body length the head announced, for the stream's `expectedLength`.
    @exclusivity(unchecked) private var expectedLength: Int64?
    /// Whether this transfer's caller drives it to the end (`CurlCallerDriving`): the body is then
    /// kept whole, up to its limit, since nobody reads a stream while it runs. Stored apart from
    /// `state.bufferedLimit` because `makeStream` reads it while an event mutates `state`.
    private let isDriven: Bool
    @exclusivity(unchecked) private var parser: ResponseHeadParser
    /// This request's own header lines, in front of a shared tail (`HeaderTails`); freed without it.
    @exclusivity(unchecked) private var ownHeaders:
        (first: UnsafeMutablePointer<curl_slist>, last: UnsafeMutablePointer<curl_slist>)?
    @exclusivity(unchecked) private var requestsDecoding = false
    @exclusivity(unchecked) private var decoding = false
    @exclusivity(unchecked) private var decodedBytes: Int64 = 0
    @exclusivity(unchecked) private var reportedUpload: Int64 = -1
    @exclusivity(unchecked) private var reportedDownload: Int64 = -1
    private var isHead: Bool { transfer.request.method == .head }
    /// Whether the I/O thread's multi handle runs this transfer: set when the driver adds it,
    /// cleared when the driver takes it out (`CurlLoopDriver.remove`), so it is taken out once.
    @exclusivity(unchecked) var isInLoop = false

    /// The transfer whose handle curl reports on, named by the handle's `CURLOPT_PRIVATE`. Only
    /// for a handle in a multi handle: whoever added it keeps its transfer alive until it is out.
    static func running(on handle: UnsafeMutableRawPointer) -> ActiveTransfer? {
        var me: UnsafeMutableRawPointer?
        guard ccurl_easy_getinfo_pointer(handle, CURLINFO_PRIVATE, &me) == CURLE_OK, let me else { return nil }
        return Unmanaged<ActiveTransfer>.fromOpaque(me).takeUnretainedValue()
    }
    /// The thread driving the transfer (the I/O thread, or a blocking caller's): curl's callbacks
    /// and the driver's calls check they run there (debug builds).
    private let drivingThread = ThreadIdentity.current

    /// The first failure this side decided on (limit, bad head, abandoned body); it wins over curl's code.
    @exclusivity(unchecked) private(set) var failure: CourierError? {
        didSet { hasFailed = failure != nil }
    }
    /// Whether `failure` is set, for the callbacks' checks: comparing the optional with `nil`
    /// copied the whole `CourierError?` through an outlined copy on every header line and chunk.
    @exclusivity(unchecked) private var hasFailed = false
    /// The stream asked for no more body; the next chunk is refused with `CURL_WRITEFUNC_PAUSE`.
    @exclusivity(unchecked) private var pauseRequested = false
    /// curl holds a refused chunk: receiving is paused until `curl_easy_pause` lifts it.
    @exclusivity(unchecked) private(set) var receivePaused = false
    /// The read callback found no body bytes and paused sending.
    @exclusivity(unchecked) private(set) var sendPaused = false

    /// The whole exchange's measurements, read when the transfer completed: a head handed over
    /// after that (a body that ended in the head's round) carries them, since the handle may be
    /// reused by then.
    @exclusivity(unchecked) private var completedMetrics = ResponseMetrics()
    /// `completedMetrics` has been read.
    @exclusivity(unchecked) private var metricsCompleted = false
    /// The TLS version, read when the head arrived (`CurlMetrics.tlsVersion(of:)`).
    @exclusivity(unchecked) private var tlsVersion: String?

    /// The response or error of a transfer its caller drives (`ResponseWaiter.driver`), once decided.
    @exclusivity(unchecked) private(set) var drivenOutcome: Result<Response, any Error>?

    /// Whether the head is complete: later header lines belong to the body's trailers, and download
    /// progress counts from here. A flag of its own: asking `state` copied the whole transfer
    /// state out of this class on every header line.
    @exclusivity(unchecked) private(set) var headDelivered = false

    /// Called once on the I/O thread when the head is complete, inside curl's callbacks; the driver
    /// calls `handOverHead()` after the round.
    var onHeadReady: (ActiveTransfer) -> Void = { _ in }

    /// - Parameter bufferedBodyLimit: set for a transfer its caller drives to the end on its own
    ///   thread: the body is kept whole, up to this many bytes, and reaches `send` with the head.
    init(
        transfer: CurlTransfer, easy: EasyHandle, loop: CurlLoop,
        waiter: ResponseWaiter,
        bufferedBodyLimit: Int64? = nil
    ) {
        self.transfer = transfer
        self.easy = easy
        self.loop = loop
        let pendingLimit = Self.pendingLimit(for: loop.configuration, driven: bufferedBodyLimit != nil)
        self.state = State(waiter: waiter, pendingLimit: pendingLimit, bufferedLimit: bufferedBodyLimit)
        self.isDriven = bufferedBodyLimit != nil
        self.parser = ResponseHeadParser(limits: transfer.context.limits)
    }

    /// A body up to this size that arrives in its head's round is handed over whole with the head,
    /// though it took several reads of the receive buffer: no stream, no second resumption.
    static let wholeBodyLimit = 64 * 1024

    /// Past how many pending bytes a body streams as it comes, chunk by chunk, even within its
    /// head's round: `wholeBodyLimit`, or one receive buffer when that is larger, never above the
    /// high watermark. A driven transfer keeps its whole body.
    static func pendingLimit(for configuration: CurlTransport.Configuration, driven: Bool) -> Int {
        guard !driven else { return .max }
        return min(max(configuration.receiveBufferSize, wholeBodyLimit), configuration.bodyHighWatermark)
    }

    deinit {
        if let ownHeaders {
            ownHeaders.last.pointee.next = nil
            curl_slist_free_all(ownHeaders.first)
        }
    }

    /// Points a new handle's callbacks at the transfer in its `…DATA` options: set once per
    /// handle, since they never change; each transfer sets only the data pointers. The header and
    /// body callbacks, called several times a response, borrow the transfer without a retain: the
    /// driver's tables hold it while its handle is in the multi handle, and no callback removes it.
    static func installCallbacks(on easy: EasyHandle) throws(CurlOptionError) {
        try easy.set(CURLOPT_HEADERFUNCTION) { buffer, size, count, me in
            guard let buffer, let me else { return 0 }
            return Unmanaged<ActiveTransfer>.fromOpaque(me)._withUnsafeGuaranteedRef {
                $0.receiveHeaderLine(UnsafeRawBufferPointer(start: buffer, count: size * count))
            }
        }
        try easy.set(CURLOPT_WRITEFUNCTION) { buffer, size, count, me in
            guard let buffer, let me else { return 0 }
            return Unmanaged<ActiveTransfer>.fromOpaque(me)._withUnsafeGuaranteedRef {
                $0.receiveBody(UnsafeRawBufferPointer(start: buffer, count: size * count))
            }
        }
        try easy.set(CURLOPT_READFUNCTION) { buffer, size, count, me in
            guard let buffer, let me else { return ccurl_readfunc_abort }
            return Unmanaged<ActiveTransfer>.fromOpaque(me).takeUnretainedValue()
                .sendBody(UnsafeMutableRawBufferPointer(start: buffer, count: size * count))
        }
        try easy.set(progress: { me, downloadTotal, downloaded, _, uploaded in
            guard let me else { return 0 }
            Unmanaged<ActiveTransfer>.fromOpaque(me).takeUnretainedValue()
                .reportProgress(
                    downloaded: Int64(downloaded), downloadTotal: Int64(downloadTotal), uploaded: Int64(uploaded))
            return 0
        })
    }

    /// Sets this request's own options on the handle: URL, method, timeouts, compression (when it
    /// differs from the handle's last transfer), header lines and the callbacks' data pointer.
    /// Everything else was set once when the handle was made.
    func configure(decompression: Bool, tails: HeaderTails) throws(CurlOptionError) {
        let request = transfer.request
        let wire = request.wireHeaderFields
        easy.clearErrorDetail()
        try easy.set(CURLOPT_URL, request.url.absoluteString)
        // Over a Unix socket the connection goes to the socket, never through a proxy.
        let socket = request.unixSocketPath
        try easy.connect(overUnixSocket: socket)
        try easy.route(through: socket == nil ? transfer.proxy : nil)
        let pins = loop.configuration.tls.publicKeyPins
        if !pins.isEmpty || easy.pinnedPublicKeys != nil {
            try easy.pin(publicKeys: pins.pins(for: request.url.host ?? ""))
        }
        try easy.setTimeouts(
            total: transfer.context.totalTimeout(for: request), connect: transfer.context.connectTimeout)
        try setMethod()

        requestsDecoding = decompression && wire[.acceptEncoding] == nil
        if easy.requestsDecoding != requestsDecoding {
            // "" asks for every encoding this libcurl can decode; NULL sends no Accept-Encoding.
            if requestsDecoding {
                try easy.set(CURLOPT_ACCEPT_ENCODING, "")
            } else {
                try easy.set(CURLOPT_ACCEPT_ENCODING, pointer: nil)
            }
            try easy.set(CURLOPT_HTTP_CONTENT_DECODING, requestsDecoding ? 1 : 0)
            easy.requestsDecoding = requestsDecoding
        }
        try setHeaderLines(wire, tails: tails)

        let me = Unmanaged.passUnretained(self).toOpaque()
        try easy.set(CURLOPT_HEADERDATA, pointer: me)
        try easy.set(CURLOPT_WRITEDATA, pointer: me)
        try easy.set(CURLOPT_READDATA, pointer: me)
        try easy.set(CURLOPT_PRIVATE, pointer: me)
        let reportsProgress = transfer.context.uploadProgress != nil || transfer.context.downloadProgress != nil
        if reportsProgress { try easy.set(CURLOPT_XFERINFODATA, pointer: me) }
        try easy.set(CURLOPT_NOPROGRESS, reportsProgress ? 0 : 1)
    }

    /// The method and upload options; `CURLOPT_HTTPGET` first returns the handle to a plain GET
    /// (no upload, no `NOBODY`), whatever its last transfer was.
    private func setMethod() throws(CurlOptionError) {
        let method = transfer.request.method
        let uploads = transfer.upload != nil
        try easy.set(CURLOPT_HTTPGET, 1)
        if method == .head { try easy.set(CURLOPT_NOBODY, 1) }
        if uploads {
            try easy.set(CURLOPT_UPLOAD, 1)
            try easy.set(CURLOPT_INFILESIZE_LARGE, offset: transfer.uploadLength ?? -1)
        }
        if method != .head, method != .get || uploads {
            try easy.set(CURLOPT_CUSTOMREQUEST, method.rawValue)
            easy.hasCustomRequest = true
        } else if easy.hasCustomRequest {
            try easy.set(CURLOPT_CUSTOMREQUEST, pointer: nil)
            easy.hasCustomRequest = false
        }
    }

    /// The request's own header lines, linked in front of the shared tail of suppressions.
    private func setHeaderLines(_ wire: HTTPFields, tails: HeaderTails) throws(CurlOptionError) {
        let tail = tails.tail(
            requestHasExpect: wire[.expect] != nil, requestHasAccept: wire[.accept] != nil,
            requestHasUserAgent: wire[.userAgent] != nil)
        var first: UnsafeMutablePointer<curl_slist>?
        for field in wire {
            let line = field.value.isEmpty ? "\(field.name.rawName);" : "\(field.name.rawName): \(field.value)"
            guard let list = curl_slist_append(first, line) else {
                curl_slist_free_all(first)
                throw CurlOptionError(code: CURLE_OUT_OF_MEMORY, option: CURLOPT_HTTPHEADER)
            }
            first = list
        }
        guard let first else {
            try easy.set(headers: tail)
            return
        }
        var last = first
        while let next = last.pointee.next { last = next }
        last.pointee.next = tail
        ownHeaders = (first, last)
        try easy.set(headers: first)
    }

    // MARK: - Callbacks

    private func receiveHeaderLine(_ line: UnsafeRawBufferPointer) -> Int {
        drivingThread.assertCurrent()
        guard !hasFailed else { return 0 }
        guard !headDelivered else { return line.count }
        switch parser.consume(line) {
        case .needMore:
            return line.count
        case .complete(let head):
            deliver(head)
            return line.count
        case .failed(let code, let message):
            failure = transfer.error(code, message)
            return 0
        }
    }

    private func receiveBody(_ chunk: UnsafeRawBufferPointer) -> Int {
        drivingThread.assertCurrent()
        guard !hasFailed else { return 0 }
        if pauseRequested {
            receivePaused = true
            return ccurl_writefunc_pause
        }
        if decoding {
            decodedBytes += Int64(chunk.count)
            // curl counts a chunked body's bytes only after decoding a whole socket read, so allow one read's worth.
            let received = easy.info(offset: CURLINFO_SIZE_DOWNLOAD_T) + Int64(loop.configuration.receiveBufferSize)
            if let error = decompressionError(received: received) {
                failure = error
                return 0
            }
        }
        let action = state.receivedBody(
            count: chunk.count, chunk: { $0.append(contentsOf: chunk) }, makeStream: makeStream)
        switch action {
        case .buffered:
            return chunk.count
        case .write(let writer):
            return take(writer.write(Data(chunk))) ? chunk.count : 0
        case .startedStream(let writer, let bytes):
            return take(writer.write(Data(bytes))) ? chunk.count : 0
        case .bodyBeforeHead:
            failure = transfer.error(.invalidResponse, "the server sent body bytes before a complete response head")
        case .exceedsBufferedLimit(let limit):
            // The error collecting the body would have raised, for the same limit.
            var tooLarge = ResponseBodyStream.tooLarge(limit)
            tooLarge.request = transfer.request
            failure = tooLarge
        case .afterEnd:
            failure = transfer.error(.invalidResponse, "curl delivered body bytes after the transfer ended")
        }
        return 0
    }

    /// Acts on what the stream said about a write; `false` when nobody will read the body.
    private func take(_ result: ResponseBodyStream.Writer.WriteResult) -> Bool {
        switch result {
        case .produceMore:
            return true
        case .pause:
            pauseRequested = true
            return true
        case .abort:
            failure = transfer.error(.cancelled, "the response body was abandoned")
            return false
        }
    }

    private func sendBody(_ buffer: UnsafeMutableRawBufferPointer) -> Int {
        drivingThread.assertCurrent()
        guard let upload = transfer.upload else { return 0 }
        switch upload.read(into: buffer) {
        case .bytes(let count):
            return count
        case .end:
            return 0
        case .wait:
            sendPaused = true
            return ccurl_readfunc_pause
        case .failed:
            failure =
                upload.failure.map { error in
                    var error = error
                    error.request = transfer.request
                    return error
                } ?? transfer.error(.encodingFailed, "the request body failed")
            return ccurl_readfunc_abort
        }
    }

    private func reportProgress(downloaded: Int64, downloadTotal: Int64, uploaded: Int64) {
        if let uploadProgress = transfer.context.uploadProgress, uploaded != reportedUpload,
            transfer.upload != nil
        {
            reportedUpload = uploaded
            uploadProgress(uploaded, transfer.uploadLength)
        }
        if let downloadProgress = transfer.context.downloadProgress, downloaded != reportedDownload, headDelivered {
            reportedDownload = downloaded
            downloadProgress(downloaded, downloadTotal > 0 ? downloadTotal : nil)
        }
    }

    /// `limitExceeded` when the decoded body outgrew `received` bytes by more than `Limits.maxDecompressionRatio`.
    private func decompressionError(received: Int64) -> CourierError? {
        let ratio = Int64(transfer.context.limits.maxDecompressionRatio)
        let (allowed, overflow) = received.multipliedReportingOverflow(by: ratio)
        guard !overflow, decodedBytes > allowed else { return nil }
        return transfer.error(
            .limitExceeded,
            "the response body decoded to \(decodedBytes) bytes from \(received), "
                + "more than the limit of \(ratio) times (Limits.maxDecompressionRatio)")
    }

    // MARK: - Head and end

    private func deliver(_ head: ResponseHeadParser.Head) {
        headDelivered = true
        tlsVersion = CurlMetrics.tlsVersion(of: easy)
        var head = head
        if requestsDecoding, !isHead, head.framing.hasContentEncoding {
            decoding = true
            var fields = head.fields  // Parsed now: the decoded body's head has neither field.
            fields[.contentEncoding] = nil
            fields[.contentLength] = nil
            head.fields = fields
            head.framing.forgetContentCoding()
        }
        if !isHead, head.status.code != 204, head.status.code != 304 {
            expectedLength = head.framing.contentLength
        }
        if state.headCompleted(head) {
            onHeadReady(self)
        }
    }

    /// A new body stream and its writer: the I/O thread resumes or aborts the transfer as the
    /// consumer reads or drops it.
    private func makeStream() -> (ResponseBodyStream, ResponseBodyStream.Writer) {
        let loop = self.loop
        let id = transfer.id
        // A driven transfer has ended before its stream exists: nothing to resume or abort, and
        // a command would start the I/O thread for nothing.
        var onResume: @Sendable () -> Void = {}
        var onAbort: @Sendable () -> Void = {}
        if !isDriven {
            onResume = { loop.submit(.resumeDownload(id)) }
            onAbort = { loop.submit(.abort(id)) }
        }
        return ResponseBodyStream.makeStream(
            expectedLength: expectedLength,
            highWatermark: isDriven ? Int.max : loop.configuration.bodyHighWatermark,
            lowWatermark: loop.configuration.bodyLowWatermark,
            onResume: onResume,
            onAbort: onAbort)
    }

    /// Resumes `send` with the response whose head completed during this round of `curl_multi_socket_action`.
    ///
    /// Waiting for the end of the round rather than resuming from the header callback means a small
    /// body, and often the end of the transfer, are already there when the caller reads it: one
    /// wakeup of the caller per request instead of two. A body that ended in the round arrives
    /// whole (`ResponseBodyStream(data)`): no lock, no suspension and no second copy to collect it.
    ///
    /// A task's continuation goes into `batch`, which the driver flushes once the round's heads are
    /// all handed over; a driving caller's outcome is kept in `drivenOutcome`.
    func handOverHead(resumingIn batch: inout ResumeBatch) {
        drivingThread.assertCurrent()
        guard let handOver = state.roundEnded(makeStream: makeStream) else { return }
        if let (writer, bytes) = handOver.firstWrite {
            _ = take(writer.write(Data(bytes)))
        }
        let body: ResponseBodyStream
        switch handOver.body {
        case .whole(let bytes): body = ResponseBodyStream(Data(bytes))
        case .stream(let stream): body = stream
        }
        var response = handOver.head.response(bodyStream: body, request: transfer.request)
        if metricsCompleted {
            response.metrics = completedMetrics
        } else {
            CurlMetrics.read(
                from: easy, into: &response.metrics, complete: false, decodedBytes: nil, tlsVersion: tlsVersion)
        }
        switch handOver.waiter {
        case .task(let continuation):
            transfer.releaseToSend()
            batch.add(continuation, .success(response), directly: transfer.resumesDirectly)
        case .driver:
            drivenOutcome = .success(response)
        }
    }

    /// Gives `send` its outcome: resumes its task, or keeps it for the driving caller.
    private func answer(_ waiter: ResponseWaiter, with outcome: Result<Response, any Error>) {
        switch waiter {
        case .task(let continuation):
            transfer.releaseToSend()
            continuation.resume(with: outcome)
        case .driver: drivenOutcome = outcome
        }
    }

    /// Lets the stream's paused body flow again; returns curl's verdict when a refused chunk was redelivered.
    func resumeReceiving() -> CURLcode {
        pauseRequested = false
        guard receivePaused else { return CURLE_OK }
        receivePaused = false
        return curl_easy_pause(easy.raw, sendPaused ? ccurl_pause_send : ccurl_pause_cont)
    }

    /// Lets a paused upload read the body again.
    func resumeSending() -> CURLcode {
        guard sendPaused else { return CURLE_OK }
        sendPaused = false
        return curl_easy_pause(easy.raw, receivePaused ? ccurl_pause_recv : ccurl_pause_cont)
    }

    /// Ends the transfer after the handle left the multi: finishes or fails the body, or answers `send`.
    func complete(_ code: CURLcode) {
        drivingThread.assertCurrent()
        transfer.upload?.close()
        if code == CURLE_OK, transfer.context.uploadProgress != nil || transfer.context.downloadProgress != nil {
            reportProgress(
                downloaded: easy.info(offset: CURLINFO_SIZE_DOWNLOAD_T),
                downloadTotal: easy.info(offset: CURLINFO_CONTENT_LENGTH_DOWNLOAD_T),
                uploaded: easy.info(offset: CURLINFO_SIZE_UPLOAD_T))
        }
        if code == CURLE_OK, !hasFailed, decoding {
            failure = decompressionError(received: easy.info(offset: CURLINFO_SIZE_DOWNLOAD_T))
        }
        if code == CURLE_OK, !hasFailed {
            CurlMetrics.read(
                from: easy, into: &completedMetrics, complete: true, decodedBytes: decoding ? decodedBytes : nil,
                tlsVersion: tlsVersion)
            metricsCompleted = true
            switch state.completed() {
            case .none: break
            case .finish(let writer): writer.finish(metrics: completedMetrics)
            case .missingHead: fail(transfer.error(.invalidResponse, "the transfer ended without a response head"))
            }
            return
        }
        fail(failure ?? CurlErrorMapping.error(for: code, on: easy, transfer: transfer))
    }

    /// Ends the transfer with `error`: `send` throws it, or the body stream does.
    func fail(_ error: CourierError) {
        transfer.upload?.close()
        if !hasFailed { failure = error }
        switch state.failed(makeStream: makeStream) {
        case .none:
            break
        case .throwToWaiter(let waiter):
            answer(waiter, with: .failure(error))
        case .failStream(let writer, let bytesFirst):
            // The head is complete: `send` returns it (now or at `handOverHead`) and the body throws.
            if !bytesFirst.isEmpty { _ = take(writer.write(Data(bytesFirst))) }
            writer.fail(error)
        }
    }
}

extension Duration {
    /// This duration in whole milliseconds for curl's `_MS` options, at least 1 (curl reads 0 as "no limit").
    var curlMilliseconds: Int {
        let (seconds, attoseconds) = components
        guard seconds < Int64(Int.max / 1000 - 1) else { return Int.max }
        return max(1, Int(seconds) * 1000 + Int((attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000))
    }
}
