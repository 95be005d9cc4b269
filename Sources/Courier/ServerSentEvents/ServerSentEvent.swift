#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// One event of a `text/event-stream`, as an `EventSource` in a browser would dispatch it.
///
/// ```swift
/// for try await event in client.events(request) where event.type == "price" {
///     let price = try event.decode(Price.self)
/// }
/// ```
public struct ServerSentEvent: Sendable, Hashable, CustomStringConvertible {
    /// The event type from the `event` field; `"message"` when the event named none.
    public var type: String
    /// The `data` lines of the event, joined with `"\n"`.
    public var data: String
    /// The stream's last event ID when this event was dispatched (the latest `id` field, which
    /// persists across events), or `nil` when it is empty; sent back as `Last-Event-ID` on reconnection.
    public var id: String?
    /// The reconnection delay the server last set with a `retry` field, or `nil` if it set none.
    public var retry: Duration?

    /// Creates an event, for tests and for code that produces events itself.
    public init(type: String = "message", data: String, id: String? = nil, retry: Duration? = nil) {
        self.type = type
        self.data = data
        self.id = id
        self.retry = retry
    }

    /// Decodes `data` as JSON, the usual payload of an event.
    ///
    /// - Throws: `CourierError` with code `decodingFailed`, whose `underlying` is the `DecodingError`.
    public func decode<Value: Decodable>(
        _ type: Value.Type = Value.self, using decoder: JSONDecoder = JSONDecoder()
    ) throws -> Value {
        do {
            return try decoder.decode(Value.self, from: Data(data.utf8))
        } catch {
            throw CourierError(
                .decodingFailed, "could not decode \(Value.self) from the data of a \"\(self.type)\" event: \(error)",
                source: "ServerSentEvent.decode", underlying: error)
        }
    }

    public var description: String {
        "\(type)\(id.map { " #\($0)" } ?? ""): \(data)"
    }
}
