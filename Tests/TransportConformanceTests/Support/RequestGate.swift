import Courier
import CourierTestServer
import Foundation

/// A test-server route, `/gate/{name}`, that holds every request until the test lets it go, and
/// counts how many it holds at once: with the requests held, the number a client has in flight
/// (and the connections it has open for them) stays put while the test looks, with no timing.
///
/// Add ``route`` to each server whose requests it should hold (one gate may serve several
/// servers, counting across them), then let requests go with ``release(_:)`` or ``open()``.
/// Call ``open()`` before the servers shut down, even when the test fails, so no handler is left waiting.
final class RequestGate: Sendable {
    private struct State {
        var held = 0
        var peak = 0
        var waiting: [CheckedContinuation<Void, Never>] = []
        var permits = 0
        var isOpen = false
    }

    enum Failure: Error, CustomStringConvertible {
        case tooFewHeld(wanted: Int, held: Int)

        var description: String {
            switch self {
            case let .tooFewHeld(wanted, held): "the gate held \(held) requests, never the \(wanted) expected"
            }
        }
    }

    private let state = Protected(State())

    /// The requests held now.
    var held: Int { state.withLock { $0.held } }

    /// The most requests held at once so far.
    var peak: Int { state.withLock { $0.peak } }

    /// `/gate/{name}`, any method: held until released, then answered with `passed {name}`.
    var route: Route {
        Route("/gate/{name}") { [self] request in
            await pass()
            return .text("passed \(request.parameters["name"] ?? "")")
        }
    }

    /// Lets the `count` longest-held requests go, or the next ones to arrive when fewer are held.
    func release(_ count: Int = 1) {
        let leaving = state.withLock { state in
            let leaving = Array(state.waiting.prefix(count))
            state.waiting.removeFirst(leaving.count)
            state.held -= leaving.count
            state.permits += count - leaving.count
            return leaving
        }
        for request in leaving { request.resume() }
    }

    /// Lets every held request go, and every later one through without stopping.
    func open() {
        let leaving = state.withLock { state in
            state.isOpen = true
            state.held -= state.waiting.count
            defer { state.waiting = [] }
            return state.waiting
        }
        for request in leaving { request.resume() }
    }

    /// Returns once at least `count` requests are held at the same time.
    ///
    /// - Throws: `Failure.tooFewHeld` when that has not happened within `limit` (a minute: on two
    ///   busy cores a loopback connect can take seconds), a sign that the client holds back more
    ///   requests than the test expects.
    func waitUntilHeld(_ count: Int, within limit: Duration = .seconds(60)) async throws {
        let deadline = ContinuousClock.now + limit
        while held < count {
            guard ContinuousClock.now < deadline else { throw Failure.tooFewHeld(wanted: count, held: held) }
            try await Task.sleep(for: .milliseconds(2))
        }
    }

    /// Holds the calling handler until a release or `open()` covers it.
    private func pass() async {
        await withCheckedContinuation { (request: CheckedContinuation<Void, Never>) in
            let passes = state.withLock { state in
                if state.isOpen { return true }
                if state.permits > 0 {
                    state.permits -= 1
                    return true
                }
                state.held += 1
                state.peak = max(state.peak, state.held)
                state.waiting.append(request)
                return false
            }
            if passes { request.resume() }
        }
    }
}
