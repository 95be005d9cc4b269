import Foundation
public import HTTPTypes

/// Completion-handler endpoints (Papyrus's closure-based API): the call runs in a task and the
/// handler is called exactly once, on that task, with the result.
extension Provider {
    /// Runs `operation` on `request` and calls `completion` once with its result; cancel the returned
    /// task to stop the call (the handler then gets the cancellation error).
    @discardableResult
    public func complete<Value>(
        _ request: Request,
        _ completion: @escaping (Result<Value, any Error>) -> Void,
        _ operation: @escaping @Sendable (Provider, Request) async throws -> Value
    ) -> Task<Void, Never> {
        let handler = CompletionBox(completion)
        return Task {
            do {
                handler.call(.success(try await operation(self, request)))
            } catch {
                handler.call(.failure(error))
            }
        }
    }

    /// Calls `completion` with the response whatever its status; when no response arrived, with a
    /// response of status 0 whose `error` says why.
    @discardableResult
    public func completeResponse(_ request: Request, _ completion: @escaping (Response) -> Void) -> Task<Void, Never> {
        let handler = CompletionBox(completion)
        return Task {
            do {
                handler.call(try await client.send(request))
            } catch {
                handler.call(Self.failedResponse(request, error))
            }
        }
    }

    /// Calls `completion` with `error` for a request that could not be built.
    public func fail<Value>(_ error: any Error, _ completion: @escaping (Result<Value, any Error>) -> Void) {
        completion(.failure(error))
    }

    /// Calls `completion` with a status-0 response carrying `error`, for a request that could not be built.
    public func failResponse(_ error: any Error, _ completion: @escaping (Response) -> Void) {
        let request = Request(url: URL(string: baseURL) ?? URL(fileURLWithPath: "/"))
        completion(Self.failedResponse(request, error))
    }

    static func failedResponse(_ request: Request, _ error: any Error) -> Response {
        var request = request
        request.options[ExchangeFailureOption.self] = error
        return Response(status: HTTPResponse.Status(code: 0, reasonPhrase: "No Response"), request: request)
    }
}

/// A completion handler moved into the task that calls it, for providers and generated mocks alike.
///
/// `@unchecked Sendable` because the handler is not `Sendable` (Papyrus's closures are plain
/// `(Result) -> Void`); the invariant that makes it safe: the box is created on the caller's side,
/// moved into exactly one task, and called once, from that task only, never concurrently.
final class CompletionBox<Argument>: @unchecked Sendable {
    private let handler: (Argument) -> Void

    init(_ handler: @escaping (Argument) -> Void) { self.handler = handler }

    func call(_ argument: Argument) { handler(argument) }
}

extension Response {
    /// The status code, or `nil` when no response arrived (Papyrus's `statusCode`).
    public var statusCode: Int? { status.code == 0 ? nil : status.code }

    /// Why the exchange failed: no response, or a status outside 200…299; `nil` for a success.
    public var error: (any Error)? {
        if let failure = request.options[ExchangeFailureOption.self] { return failure }
        return (200..<300).contains(status.code) ? nil : Provider.statusError(self)
    }
}

/// Netrofit's name for a `HEAD` endpoint's return type: the response's header fields.
public typealias HTTPHeaders = HTTPFields
