import Foundation

/// `@EventStreaming` endpoints, on the core's Server-Sent Events: WHATWG parsing, `Last-Event-ID`
/// and reconnection through the whole interceptor chain.
extension Provider {
    /// Each event as the core parses it (an `AsyncThrowingStream<ServerSentEvent, any Error>` return type).
    public func events(_ request: Request) -> AsyncThrowingStream<ServerSentEvent, any Error> {
        stream(request) { $0 }
    }

    /// Each event's data (an `AsyncThrowingStream<String, any Error>` return type).
    public func eventData(_ request: Request) -> AsyncThrowingStream<String, any Error> {
        stream(request) { $0.data }
    }

    /// Each event's data decoded from JSON with the endpoint's decoder.
    public func decodedEvents<Value: Decodable & Sendable>(
        _ request: Request, as type: Value.Type
    ) -> AsyncThrowingStream<Value, any Error> {
        let decoder = request.options[JSONDecoderOption.self]
        return stream(request) { try $0.decode(Value.self, using: decoder) }
    }

    /// The same elements as an `AsyncStream`, which ends quietly where the throwing one would throw.
    public func nonThrowing<Element: Sendable>(
        _ events: AsyncThrowingStream<Element, any Error>
    ) -> AsyncStream<Element> {
        AsyncStream { continuation in
            let task = Task {
                do {
                    for try await element in events { continuation.yield(element) }
                } catch {}
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    func stream<Element: Sendable>(
        _ request: Request, _ transform: @escaping @Sendable (ServerSentEvent) throws -> Element
    ) -> AsyncThrowingStream<Element, any Error> {
        let events = client.events(request)
        return AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    for try await event in events { continuation.yield(try transform(event)) }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
