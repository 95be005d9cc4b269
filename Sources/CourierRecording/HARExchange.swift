public import Courier
import Synchronization

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One exchange being recorded: its request and response head are known, its body is still on
/// its way to the reader. Watches the body pass (`ResponseBodyObserver`), keeping up to the
/// transcriber's limit, and completes the entry when the body ends.
final class HARExchange: ResponseBodyObserver {
    /// Receives the finished entry, and the error the body ended with, if any; what it throws
    /// reaches the body's reader.
    typealias Completion = @Sendable (HTTPArchive.Entry, CourierError?) throws(CourierError) -> Void

    private struct Body {
        var kept = Data()
        var size = 0
    }

    private let entry: HTTPArchive.Entry
    private let headArrived: ContinuousClock.Instant
    private let transcriber: HARTranscriber
    private let secrets: [String]
    private let completion: Completion
    private let body = Protected(Body())
    /// The stream observed, whose measurements are complete once it has ended.
    private let stream = Protected<ResponseBodyStream?>(nil)
    /// What the transport had measured when the head arrived.
    private let headMetrics: ResponseMetrics

    /// An exchange whose head arrived at `headArrived`, `entry` holding everything but the body.
    init(
        entry: HTTPArchive.Entry, headArrived: ContinuousClock.Instant, headMetrics: ResponseMetrics,
        transcriber: HARTranscriber, secrets: [String], completion: @escaping Completion
    ) {
        self.entry = entry
        self.headMetrics = headMetrics
        self.headArrived = headArrived
        self.transcriber = transcriber
        self.secrets = secrets
        self.completion = completion
    }

    /// Records `response`: a streaming body is observed on its way to the reader (the response
    /// returned has the observed stream), a buffered one is recorded at once.
    func record(_ response: Response) throws(CourierError) -> Response {
        guard let stream = response.bodyStream else {
            received(response.body)
            try ended(with: nil)
            return response
        }
        self.stream.withLock { $0 = stream }
        var observed = response
        observed.bodyStream = stream.observed(by: self)
        return observed
    }

    func received(_ chunk: Data) {
        body.withLock { body in
            body.size += chunk.count
            let room = transcriber.maxBodyBytes - body.kept.count
            if room > 0 { body.kept.append(chunk.prefix(room)) }
        }
    }

    func ended(with error: CourierError?) throws(CourierError) {
        let receive = HARTranscriber.milliseconds(ContinuousClock.now - headArrived)
        let (kept, size) = body.withLock { ($0.kept, $0.size) }
        var finished = entry
        finished.response.content = transcriber.content(
            kept: kept, size: size, mimeType: entry.response.content.mimeType,
            secrets: secrets)
        let encoded = entry.response.headers.contains { $0.name.lowercased() == "content-encoding" }
        finished.response.bodySize = encoded ? -1 : size
        if let error {
            let reason = transcriber.redaction?.scrubbing("\(error)", secrets: secrets) ?? "\(error)"
            finished.response.comment = "the body ended early: \(reason)"
        }
        finished.timings.receive = receive
        // The transport's measurement of the body, when it has one: from the stream once it has
        // ended, or from the head when the body arrived with it.
        let streamed = stream.withLock { $0?.metrics }
        if error == nil, let metrics = streamed ?? (headMetrics.total != nil ? headMetrics : nil) {
            finished.timings.take(metrics)
        }
        finished.time = finished.timings.total
        try completion(finished, error)
    }
}

extension HARExchange {
    /// Sends `request` with `send` and records the exchange: the request body is read first
    /// (unless it is a one-shot stream), the head is timed, and the body is observed on its way
    /// to the caller. `completion` gets the entry when the body ends, or at once with the error
    /// when the send fails; the failure is rethrown.
    static func recording(
        _ request: Request, transcriber: HARTranscriber,
        send: (Request) async throws -> Response,
        completion: @escaping Completion
    ) async throws -> Response {
        let started = Date()
        let start = ContinuousClock.now
        let body = await transcriber.captureBody(of: request)
        let sent = ContinuousClock.now
        let requestSecrets = transcriber.secrets(in: request.headerFields, url: request.url)
        let response: Response
        do {
            response = try await send(request)
        } catch {
            let elapsed = HARTranscriber.milliseconds(ContinuousClock.now - sent)
            let timings = HTTPArchive.Timings(
                send: HARTranscriber.milliseconds(sent - start), wait: elapsed, receive: 0)
            let entry = HTTPArchive.Entry(
                startedDateTime: HARTranscriber.timestamp(started), time: timings.total,
                request: transcriber.request(request, body: body, secrets: requestSecrets),
                response: transcriber.failedResponse(error, secrets: requestSecrets), timings: timings)
            try? completion(entry, error as? CourierError ?? CourierError(.unknown, "\(error)", underlying: error))
            throw error
        }
        let headArrived = ContinuousClock.now
        let sentRequest = response.request
        let secrets = (requestSecrets + transcriber.secrets(in: response.headerFields)).sorted { $0.count > $1.count }
        var timings = HTTPArchive.Timings(
            send: HARTranscriber.milliseconds(sent - start),
            wait: HARTranscriber.milliseconds(headArrived - sent), receive: 0)
        timings.take(response.metrics)
        var entry = HTTPArchive.Entry(
            startedDateTime: HARTranscriber.timestamp(started), time: timings.total,
            request: transcriber.request(sentRequest, body: sentRequest.body == nil ? .none : body, secrets: secrets),
            response: transcriber.responseHead(response), timings: timings)
        entry.serverIPAddress = response.metrics.remoteAddress
        entry.connection = response.metrics.remotePort.map { "\(response.metrics.remoteAddress ?? ""):\($0)" }
        let exchange = HARExchange(
            entry: entry, headArrived: headArrived, headMetrics: response.metrics, transcriber: transcriber,
            secrets: secrets, completion: completion)
        return try exchange.record(response)
    }
}
