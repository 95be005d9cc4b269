import HTTPTypes
import Logging

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The events of a Server-Sent Events endpoint, reconnecting as an `EventSource` does; made by `Client.events`.
///
/// Nothing is sent until iteration starts. Each connection is a new `Client.stream` call, so it
/// passes through every interceptor (authentication, logging, metrics) again, and carries
/// `Last-Event-ID` with the last ID seen so the server can resume. Iteration:
/// - yields each event as soon as its blank line arrives; an event cut off by a disconnect is discarded;
/// - reconnects after the stream ends or the connection fails, as `ReconnectionPolicy` says;
/// - ends (returns `nil`) when the server answers 204, or the policy gives up after a clean close;
/// - throws `CourierError`: `unacceptableStatus` or `unacceptableContentType` (with the response)
///   for an answer that is not a 2xx `text/event-stream`, `limitExceeded` for a line longer than
///   `Limits.maxEventLineBytes` or an event past `Limits.maxEventBytes`, `cancelled` when the task is cancelled, or any error of the
///   pipeline that a reconnection cannot cure.
///
/// Cancelling the task, or leaving the loop early, aborts the transfer.
public struct EventStream: AsyncSequence, Sendable {
    public typealias Element = ServerSentEvent

    let client: Client
    let request: Request
    let interceptors: [any Interceptor]
    let reconnection: ReconnectionPolicy

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(stream: self) }

    /// Reads one connection after another; dropping it aborts the current transfer.
    public struct AsyncIterator: AsyncIteratorProtocol {
        private enum Phase {
            case idle
            case reading
            case disconnected(CourierError?)
            case finished
        }

        private let stream: EventStream
        private var phase = Phase.idle
        private var parser: EventStreamParser
        /// Events parsed but not yet returned, the next one last.
        private var pending: [ServerSentEvent] = []
        private var body: ResponseBodyStream?
        private var chunks: ResponseBodyStream.AsyncIterator?
        private var reconnectsWithoutEvent = 0

        fileprivate init(stream: EventStream) {
            self.stream = stream
            let limits = stream.client.configuration.limits
            self.parser = EventStreamParser(maxLineBytes: limits.maxEventLineBytes, maxEventBytes: limits.maxEventBytes)
        }

        /// The next event, after as many reconnections as it takes.
        public mutating func next() async throws -> ServerSentEvent? {
            do {
                return try await nextEvent()
            } catch {
                close()
                phase = .finished
                if Task.isCancelled || error is CancellationError {
                    throw CourierError(
                        .cancelled, "the event stream was cancelled", source: "Client.events",
                        request: stream.request, underlying: error)
                }
                throw error
            }
        }

        private mutating func nextEvent() async throws -> ServerSentEvent? {
            while true {
                if let event = pending.popLast() {
                    reconnectsWithoutEvent = 0
                    return event
                }
                switch phase {
                case .finished:
                    return nil
                case .idle:
                    try await connect()
                case .reading:
                    try await read()
                case .disconnected(let error):
                    reconnectsWithoutEvent += 1
                    if let limit = stream.reconnection.maxReconnectsWithoutEvent, reconnectsWithoutEvent > limit {
                        phase = .finished
                        if let error { throw error }
                        return nil
                    }
                    let delay = stream.reconnection.delay(
                        beforeReconnect: reconnectsWithoutEvent, serverRetry: parser.reconnectionTime)
                    stream.client.configuration.logger.debug(
                        "event stream reconnecting",
                        metadata: [
                            "url": "\(stream.request.url.absoluteString)", "delay": "\(delay)",
                            "last-event-id": "\(parser.lastEventID)",
                            "cause": "\(error.map(String.init(describing:)) ?? "end of stream")",
                        ])
                    try await stream.reconnection.sleep(delay)
                    try Task.checkCancellation()
                    try await connect()
                }
            }
        }

        /// Sends the request once more, with `Last-Event-ID`, and starts reading its stream.
        private mutating func connect() async throws {
            var request = stream.request
            request.headerFields[.accept] = MIMEType.Text.eventStream.rawValue
            request.headerFields[.cacheControl] = "no-cache"
            if let lastEventID = HTTPField.Name("Last-Event-ID") {
                request.headerFields[lastEventID] = parser.lastEventID.isEmpty ? nil : parser.lastEventID
            }
            let response: Response
            do {
                response = try await stream.client.stream(request, interceptors: stream.interceptors)
            } catch let error as CourierError where Self.isReconnectable(error) {
                phase = .disconnected(error)
                return
            }
            if response.status.code == 204 {
                response.bodyStream?.discard()
                phase = .finished
                return
            }
            try await Self.validate(response, limits: stream.client.configuration.limits)
            let body = response.bodyStream ?? ResponseBodyStream(response.body)
            self.body = body
            chunks = body.makeAsyncIterator()
            phase = .reading
        }

        /// Reads the next chunk into events; the end of the body or a failed connection is a disconnect.
        private mutating func read() async throws {
            let chunk: Data?
            do {
                chunk = try await chunks?.next()
            } catch let error as CourierError where Self.isReconnectable(error) {
                disconnect(error)
                return
            }
            guard let chunk else {
                disconnect(nil)
                return
            }
            do {
                pending = try parser.parse(chunk).reversed()
            } catch {
                var error = error
                error.request = stream.request
                throw error
            }
        }

        private mutating func disconnect(_ error: CourierError?) {
            close()
            parser.finish()
            phase = .disconnected(error)
        }

        /// Lets go of the current body, aborting its transfer unless it has ended.
        private mutating func close() {
            body?.discard()
            body = nil
            chunks = nil
        }

        /// Whether `error` is a failure of the network that the spec answers by reconnecting.
        private static func isReconnectable(_ error: CourierError) -> Bool {
            guard !Task.isCancelled else { return false }
            return error.code == .cannotConnect || error.code == .timedOut || error.code == .invalidResponse
        }

        /// Refuses an answer that is not a 2xx `text/event-stream`; a refused status keeps its (bounded) body.
        private static func validate(_ response: Response, limits: Limits) async throws {
            let exchange = "\(response.request.method) \(response.request.url.absoluteString)"
            guard (200..<300).contains(response.status.code) else {
                let collected = (try? await response.collectingBody(upTo: limits.maxBodyBytes)) ?? response
                response.bodyStream?.discard()
                throw CourierError(
                    .unacceptableStatus,
                    "\(exchange) answered \(response.status.code) \(response.status.reasonPhrase) instead of an event stream",
                    source: "Client.events", request: response.request, response: collected)
            }
            guard response.contentType?.essence == MIMEType.Text.eventStream.rawValue else {
                response.bodyStream?.discard()
                throw CourierError(
                    .unacceptableContentType,
                    "\(exchange) answered with content type \(response.contentType?.rawValue ?? "none") instead of text/event-stream",
                    source: "Client.events", request: response.request, response: response)
            }
        }
    }
}
