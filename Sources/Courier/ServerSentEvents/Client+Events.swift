#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Client {
    /// The Server-Sent Events of `request`, as an async sequence that reconnects like an `EventSource`.
    ///
    /// ```swift
    /// for try await event in client.events(request) where event.type == "tick" { print(event.data) }
    /// ```
    ///
    /// Each connection sends `Accept: text/event-stream`, `Cache-Control: no-cache` and, after the
    /// first event with an ID, `Last-Event-ID`, through every interceptor. A stream has no total
    /// deadline unless the request sets its own `Timeout` (the connect timeout still applies), since
    /// it is meant to stay open; see `EventStream` for what ends it.
    ///
    /// - Parameters:
    ///   - request: the request that opens the stream, sent again on each reconnection.
    ///   - extra: interceptors for this stream only (`interceptors:`), inside the client's.
    ///   - reconnection: when to reconnect; by default after 3 s or the server's `retry`, forever.
    public func events(
        _ request: Request, interceptors extra: [any Interceptor] = [],
        reconnection: ReconnectionPolicy = ReconnectionPolicy()
    ) -> EventStream {
        var client = self
        client.configuration.timeout = nil
        return EventStream(client: client, request: request, interceptors: extra, reconnection: reconnection)
    }

    /// The events of `request` with their `data` decoded from JSON as `Value`, using the request's `JSONDecoder`.
    ///
    /// Every event is decoded whatever its type; for streams that mix payloads, iterate
    /// `events(_:)` and call `ServerSentEvent.decode(_:using:)` on the events you want.
    ///
    /// - Throws: while iterating, what `events(_:)` throws, and `decodingFailed` for data that does not decode.
    public func events<Value: Decodable & Sendable>(
        _ request: Request, decoding type: Value.Type, interceptors extra: [any Interceptor] = [],
        reconnection: ReconnectionPolicy = ReconnectionPolicy()
    ) -> some AsyncSequence<Value, any Error> & Sendable {
        let decoder = request.options[JSONDecoderOption.self]
        return events(request, interceptors: extra, reconnection: reconnection).map { @Sendable event in
            try event.decode(Value.self, using: decoder)
        }
    }
}
