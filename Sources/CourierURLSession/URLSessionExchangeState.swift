/// The phases of one exchange on `URLSessionTransport`, as one value: each case carries only what
/// its phase needs, and each event returns the action the exchange takes outside the lock.
///
/// Generic over the waiter (the `send` continuation) and the body writer, so that it is tested on
/// its own, without URLSession (`URLSessionExchangeStateTests`).
enum URLSessionExchangeState<Waiter, Writer> {
    /// Made; the task has not been started.
    case idle
    /// The task runs; `send` waits for the response head.
    case awaitingHead(Waiter)
    /// The head was returned; the body streams through the writer.
    case streaming(Writer)
    /// Ended: the body finished or failed, or `send` threw.
    case finished

    /// What the exchange does after an event.
    enum Action {
        /// Nothing.
        case none
        /// Return the head to `send` and stream the body through the writer the event carried.
        case returnHead(Waiter)
        /// Fail `send` with the error.
        case failSend(Waiter, URLSessionExchangeFailure)
        /// Fail `send` and cancel the URLSession task.
        case failSendAndCancelTask(Waiter, URLSessionExchangeFailure)
        /// Pass a chunk of the body to the writer.
        case write(Writer)
        /// End the body.
        case finishBody(Writer)
        /// End the body with the error.
        case failBody(Writer, URLSessionExchangeFailure)
        /// End the body with the error and cancel the URLSession task.
        case failBodyAndCancelTask(Writer, URLSessionExchangeFailure)
        /// Cancel the URLSession task: nobody reads the body any more.
        case cancelTask
    }

    /// `send` starts the task and waits.
    mutating func start(_ waiter: Waiter) {
        guard case .idle = self else { preconditionFailure("an exchange is started once") }
        self = .awaitingHead(waiter)
    }

    /// The response head arrived and passed its checks; `writer` feeds the body from now on.
    mutating func receivedHead(writer: Writer) -> Action {
        guard case .awaitingHead(let waiter) = self else { return .none }
        self = .streaming(writer)
        return .returnHead(waiter)
    }

    /// The response head arrived and failed its checks (a limit, ambiguous framing).
    mutating func rejectedHead(_ failure: URLSessionExchangeFailure) -> Action {
        guard case .awaitingHead(let waiter) = self else { return .none }
        self = .finished
        return .failSendAndCancelTask(waiter, failure)
    }

    /// A chunk of the body arrived.
    mutating func receivedData() -> Action {
        guard case .streaming(let writer) = self else { return .none }
        return .write(writer)
    }

    /// URLSession completed the task, with an error or without.
    mutating func completed(_ failure: URLSessionExchangeFailure?) -> Action {
        switch self {
        case .idle, .finished:
            return .none
        case .awaitingHead(let waiter):
            self = .finished
            return .failSend(waiter, failure ?? .noResponse)
        case .streaming(let writer):
            self = .finished
            return failure.map { .failBody(writer, $0) } ?? .finishBody(writer)
        }
    }

    /// The exchange must stop before URLSession ends it: the caller's task was cancelled, or the
    /// total deadline passed.
    mutating func interrupted(_ failure: URLSessionExchangeFailure) -> Action {
        switch self {
        case .idle, .finished:
            return .none
        case .awaitingHead(let waiter):
            self = .finished
            return .failSendAndCancelTask(waiter, failure)
        case .streaming(let writer):
            self = .finished
            return .failBodyAndCancelTask(writer, failure)
        }
    }

    /// The body's reader went away (or the writer answered `abort`).
    mutating func bodyAbandoned() -> Action {
        guard case .streaming = self else { return .none }
        self = .finished
        return .cancelTask
    }
}

/// Why an exchange ended early, before it becomes a `CourierError` with the request attached.
enum URLSessionExchangeFailure: Error, Equatable {
    /// The caller's task was cancelled.
    case cancelled
    /// The total deadline passed.
    case timedOut
    /// URLSession completed the task without a response.
    case noResponse
    /// URLSession's error: its domain's code and description.
    case urlError(code: Int, description: String)
    /// The response head broke a rule: `limitExceeded` or `invalidResponse` with the message and its source.
    case rejected(limit: Bool, message: String, source: String)
}
