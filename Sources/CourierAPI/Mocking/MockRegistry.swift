import Foundation
import Synchronization

/// The closures a generated `<Protocol>Mock` answers with, by endpoint.
///
/// Thread-safe, so a mock can be shared by concurrent tests and called from any task.
public final class MockRegistry: Sendable {
    private let handlers = Protected<[String: any Sendable]>([:])

    /// An empty registry: every endpoint throws `MockNotSet` until mocked.
    public init() {}

    /// Answers calls of `endpoint` with `handler` from now on.
    public func set(_ endpoint: String, _ handler: any Sendable) {
        handlers.withLock { $0[endpoint] = handler }
    }

    /// The handler for `endpoint`, or `MockNotSet` naming it and the mock function to call.
    public func handler<Handler>(_ endpoint: String, mockFunction: String, as type: Handler.Type) throws -> Handler {
        let handler = handlers.withLock { $0[endpoint] }
        guard let handler = handler as? Handler else {
            throw MockNotSet(endpoint: endpoint, mockFunction: mockFunction)
        }
        return handler
    }
}

extension MockRegistry {
    /// Calls the handler of a completion-handler endpoint in a task, and `completion` once with its result.
    @discardableResult
    public func complete<Handler: Sendable, Value>(
        _ endpoint: String, mockFunction: String, as type: Handler.Type,
        _ completion: @escaping (Result<Value, any Error>) -> Void,
        _ call: @escaping @Sendable (Handler) async throws -> Value
    ) -> Task<Void, Never> {
        let completion = CompletionBox(completion)
        return Task {
            do {
                let handler = try self.handler(endpoint, mockFunction: mockFunction, as: Handler.self)
                completion.call(.success(try await call(handler)))
            } catch {
                completion.call(.failure(error))
            }
        }
    }

    /// Calls the handler of a `(Response) -> Void` endpoint in a task, and `completion` once with its
    /// response; an unmocked endpoint gets a status-0 response whose `error` says so.
    @discardableResult
    public func completeResponse<Handler: Sendable>(
        _ endpoint: String, mockFunction: String, as type: Handler.Type,
        _ completion: @escaping (Response) -> Void,
        _ call: @escaping @Sendable (Handler) async throws -> Response
    ) -> Task<Void, Never> {
        let completion = CompletionBox(completion)
        return Task {
            do {
                let handler = try self.handler(endpoint, mockFunction: mockFunction, as: Handler.self)
                completion.call(try await call(handler))
            } catch {
                let request = Request(url: URL(fileURLWithPath: "/"))
                completion.call(Provider.failedResponse(request, error))
            }
        }
    }
}

/// Thrown by a generated mock for an endpoint that was called without being mocked.
public struct MockNotSet: Error, Sendable, CustomStringConvertible {
    /// The endpoint that was called, as `name(label:)`.
    public let endpoint: String
    /// The function that mocks it.
    public let mockFunction: String

    public var description: String {
        "\(endpoint) was called but not mocked; call \(mockFunction) { … } on the mock first"
    }
}
