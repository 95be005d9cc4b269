import CCurl
import Courier
import Foundation
import HTTPTypes

/// The I/O thread's side of one transfer: its easy handle, header list, head parser, body writer,
/// pause flags and first failure. Every member is used on the I/O thread only, from the loop or from
/// curl's callbacks, which curl runs inside `curl_multi_perform` and `curl_easy_pause` on that thread.
///
/// curl's callbacks reach this object through an unretained pointer; the loop's table of active
/// transfers keeps it alive from `curl_multi_add_handle` until after `curl_multi_remove_handle`.
final class TransferState {
    let transfer: CurlTransfer
    let easy: EasyHandle
    private let loop: CurlLoop
    private var continuation: CheckedContinuation<Response, any Error>?
    private var writer: ResponseBodyStream.Writer?
    /// The parsed response waiting for `handOverHead()` at the end of the driver's round.
    private var pendingResponse: Response?
    private var parser: ResponseHeadParser
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private var requestsDecoding = false
    private var decoding = false
    private var decodedBytes: Int64 = 0
    private var reportedUpload: Int64 = -1
    private var reportedDownload: Int64 = -1
    private var isHead: Bool { transfer.request.method == .head }

    /// The first failure this side decided on (limit, bad head, abandoned body); it wins over curl's code.
    private(set) var failure: CourierError?
    /// The stream asked for no more body; the next chunk is refused with `CURL_WRITEFUNC_PAUSE`.
    private var pauseRequested = false
    /// curl holds a refused chunk: receiving is paused until `curl_easy_pause` lifts it.
    private(set) var receivePaused = false
    /// The read callback found no body bytes and paused sending.
    private(set) var sendPaused = false

    /// Whether the response head is complete: handed to `send`, or about to be at the end of this round.
    var headDelivered: Bool { writer != nil }

    /// Called once on the I/O thread when the head is complete, inside curl's callbacks; the driver
    /// calls `handOverHead()` after the round.
    var onHeadReady: (TransferState) -> Void = { _ in }

    init(transfer: CurlTransfer, easy: EasyHandle, loop: CurlLoop, continuation: CheckedContinuation<Response, any Error>) {
        self.transfer = transfer
        self.easy = easy
        self.loop = loop
        self.continuation = continuation
        self.parser = ResponseHeadParser(limits: transfer.context.limits)
    }

    deinit {
        curl_slist_free_all(headerList)
    }

    /// Sets every option for this request on the (freshly reset) easy handle.
    func configure(with configuration: CurlTransport.Configuration) throws(CurlOptionError) {
        let request = transfer.request
        let wire = request.wireHeaderFields
        easy.reset()
        try easy.set(CURLOPT_URL, request.url.absoluteString)
        try easy.set(CURLOPT_PROTOCOLS_STR, "http,https")
        try easy.set(CURLOPT_NOSIGNAL, 1)
        try easy.set(CURLOPT_FOLLOWLOCATION, 0)
        try easy.set(CURLOPT_SUPPRESS_CONNECT_HEADERS, 1)
        try easy.set(CURLOPT_BUFFERSIZE, configuration.receiveBufferSize)
        try configuration.apply(to: easy)

        if let timeout = transfer.context.totalTimeout(for: request) {
            try easy.set(CURLOPT_TIMEOUT_MS, timeout.curlMilliseconds)
        }
        try easy.set(CURLOPT_CONNECTTIMEOUT_MS, transfer.context.connectTimeout.curlMilliseconds)

        switch request.method {
        case .get where transfer.upload == nil:
            try easy.set(CURLOPT_HTTPGET, 1)
        case .head:
            try easy.set(CURLOPT_NOBODY, 1)
        default:
            try easy.set(CURLOPT_CUSTOMREQUEST, request.method.rawValue)
        }
        if transfer.upload != nil {
            try easy.set(CURLOPT_UPLOAD, 1)
            try easy.set(CURLOPT_INFILESIZE_LARGE, offset: transfer.uploadLength ?? -1)
        }

        requestsDecoding = configuration.decompression && wire[.acceptEncoding] == nil
        if requestsDecoding {
            try easy.set(CURLOPT_ACCEPT_ENCODING, "")
        }
        try easy.set(CURLOPT_HTTP_CONTENT_DECODING, requestsDecoding ? 1 : 0)

        var lines = wire.map { field in
            field.value.isEmpty ? "\(field.name.rawName);" : "\(field.name.rawName): \(field.value)"
        }
        if wire[.expect] == nil { lines.append("Expect:") }
        if wire[.accept] == nil { lines.append("Accept:") }
        if let userAgent = configuration.userAgent, wire[.userAgent] == nil { lines.append("User-Agent: \(userAgent)") }
        for line in lines {
            guard let list = curl_slist_append(headerList, line) else {
                throw CurlOptionError(code: CURLE_OUT_OF_MEMORY, option: CURLOPT_HTTPHEADER)
            }
            headerList = list
        }
        try easy.set(headers: headerList)

        let me = Unmanaged.passUnretained(self).toOpaque()
        try easy.set(CURLOPT_HEADERDATA, pointer: me)
        try easy.set(CURLOPT_HEADERFUNCTION) { buffer, size, count, me in
            guard let buffer, let me else { return 0 }
            return Unmanaged<TransferState>.fromOpaque(me).takeUnretainedValue()
                .receiveHeaderLine(UnsafeRawBufferPointer(start: buffer, count: size * count))
        }
        try easy.set(CURLOPT_WRITEDATA, pointer: me)
        try easy.set(CURLOPT_WRITEFUNCTION) { buffer, size, count, me in
            guard let buffer, let me else { return 0 }
            return Unmanaged<TransferState>.fromOpaque(me).takeUnretainedValue()
                .receiveBody(UnsafeRawBufferPointer(start: buffer, count: size * count))
        }
        if transfer.upload != nil {
            try easy.set(CURLOPT_READDATA, pointer: me)
            try easy.set(CURLOPT_READFUNCTION) { buffer, size, count, me in
                guard let buffer, let me else { return ccurl_readfunc_abort }
                return Unmanaged<TransferState>.fromOpaque(me).takeUnretainedValue()
                    .sendBody(UnsafeMutableRawBufferPointer(start: buffer, count: size * count))
            }
        }
        if transfer.context.uploadProgress != nil || transfer.context.downloadProgress != nil {
            try easy.set(CURLOPT_XFERINFODATA, pointer: me)
            try easy.set(progress: { me, downloadTotal, downloaded, _, uploaded in
                guard let me else { return 0 }
                Unmanaged<TransferState>.fromOpaque(me).takeUnretainedValue()
                    .reportProgress(downloaded: Int64(downloaded), downloadTotal: Int64(downloadTotal), uploaded: Int64(uploaded))
                return 0
            })
            try easy.set(CURLOPT_NOPROGRESS, 0)
        }
    }

    // MARK: - Callbacks

    private func receiveHeaderLine(_ line: UnsafeRawBufferPointer) -> Int {
        guard failure == nil else { return 0 }
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
        guard failure == nil else { return 0 }
        guard let writer else {
            failure = transfer.error(.invalidResponse, "the server sent body bytes before a complete response head")
            return 0
        }
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
        switch writer.write(Data(chunk)) {
        case .produceMore:
            break
        case .pause:
            pauseRequested = true
        case .abort:
            failure = transfer.error(.cancelled, "the response body was abandoned")
            return 0
        }
        return chunk.count
    }

    private func sendBody(_ buffer: UnsafeMutableRawBufferPointer) -> Int {
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
            failure = upload.failure.map { error in
                var error = error
                error.request = transfer.request
                return error
            } ?? transfer.error(.encodingFailed, "the request body failed")
            return ccurl_readfunc_abort
        }
    }

    private func reportProgress(downloaded: Int64, downloadTotal: Int64, uploaded: Int64) {
        if let uploadProgress = transfer.context.uploadProgress, uploaded != reportedUpload,
           transfer.upload != nil {
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
        return transfer.error(.limitExceeded, "the response body decoded to \(decodedBytes) bytes from \(received), "
                              + "more than the limit of \(ratio) times (Limits.maxDecompressionRatio)")
    }

    // MARK: - Head and end

    private func deliver(_ head: ResponseHeadParser.Head) {
        var fields = head.fields
        if requestsDecoding, !isHead, fields[.contentEncoding] != nil {
            decoding = true
            fields[.contentEncoding] = nil
            fields[.contentLength] = nil
        }
        var expectedLength: Int64?
        if !isHead, head.status.code != 204, head.status.code != 304 {
            expectedLength = fields[.contentLength].flatMap { Int64($0) }
        }
        let loop = self.loop
        let id = transfer.id
        let (stream, writer) = ResponseBodyStream.makeStream(
            expectedLength: expectedLength,
            highWatermark: loop.configuration.bodyHighWatermark,
            lowWatermark: loop.configuration.bodyLowWatermark,
            onResume: { loop.submit(.resumeDownload(id)) },
            onAbort: { loop.submit(.abort(id)) })
        self.writer = writer
        pendingResponse = Response(status: head.status, headerFields: fields, bodyStream: stream, request: transfer.request)
        onHeadReady(self)
    }

    /// Resumes `send` with the response whose head completed during this round of `curl_multi_perform`.
    ///
    /// Waiting for the end of the round rather than resuming from the header callback means a small
    /// body, and often the end of the transfer, are already in the stream when the caller reads it:
    /// one wakeup of the caller per request instead of two, and no suspension while collecting.
    func handOverHead() {
        guard let response = pendingResponse, let continuation else { return }
        pendingResponse = nil
        self.continuation = nil
        continuation.resume(returning: response)
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
        transfer.upload?.close()
        if code == CURLE_OK, transfer.context.uploadProgress != nil || transfer.context.downloadProgress != nil {
            reportProgress(downloaded: easy.info(offset: CURLINFO_SIZE_DOWNLOAD_T),
                           downloadTotal: easy.info(offset: CURLINFO_CONTENT_LENGTH_DOWNLOAD_T),
                           uploaded: easy.info(offset: CURLINFO_SIZE_UPLOAD_T))
        }
        if code == CURLE_OK, failure == nil, decoding {
            failure = decompressionError(received: easy.info(offset: CURLINFO_SIZE_DOWNLOAD_T))
        }
        if code == CURLE_OK, failure == nil {
            if let writer {
                writer.finish()
            } else {
                fail(transfer.error(.invalidResponse, "the transfer ended without a response head"))
            }
            return
        }
        fail(failure ?? CurlErrorMapping.error(for: code, detail: easy.errorDetail, transfer: transfer))
    }

    /// Ends the transfer with `error`: `send` throws it, or the body stream does.
    func fail(_ error: CourierError) {
        transfer.upload?.close()
        if failure == nil { failure = error }
        if let continuation, pendingResponse == nil {
            self.continuation = nil
            continuation.resume(throwing: error)
        } else {
            // The head is complete: `send` returns it (now or at `handOverHead`) and the body throws.
            writer?.fail(error)
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
