#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// What every stage of one send did: which interceptor changed what in the request and the
/// response, and how long each took. Produced by `ExplainRecorder` for a client made with
/// `Client.explaining()`; readable as text (`text`) and as stable JSON (`Codable`, `json()`).
///
/// Steps are in the order the stages started; a stage that called `next` twice (a retry) is
/// followed by the inner stages of both passes, each with its `attempt`. Secrets are redacted.
public struct Explanation: Codable, Sendable, Hashable {
    /// One change a stage made to the request on its way in, or to the response on its way out.
    public struct Change: Codable, Sendable, Hashable {
        /// What kind of change.
        public enum Kind: String, Codable, Sendable, Hashable {
            /// The request method changed.
            case method
            /// The request URL changed (or a redirect moved it, for the transport step).
            case url
            /// A header field appeared.
            case headerAdded
            /// A header field disappeared.
            case headerRemoved
            /// A header field's values changed.
            case headerChanged
            /// A request body appeared.
            case bodyAdded
            /// The request body was dropped.
            case bodyRemoved
            /// The body was swapped for different content.
            case bodyReplaced
            /// The response status changed.
            case status
        }

        /// What kind of change.
        public var kind: Kind
        /// The header name, for header changes.
        public var field: String?
        /// The value before, when there was one.
        public var from: String?
        /// The value after, when there is one.
        public var to: String?

        /// Creates a change record.
        public init(_ kind: Kind, field: String? = nil, from: String? = nil, to: String? = nil) {
            self.kind = kind
            self.field = field
            self.from = from
            self.to = to
        }
    }

    /// What one stage did in one pass of the request through it.
    public struct Step: Codable, Sendable, Hashable {
        /// The interceptor's name, or `transport` for the redirects-and-transport stage.
        public var stage: String
        /// How deep in the chain: 0 for the outermost interceptor.
        public var depth: Int
        /// Which pass of the send reached this stage (`InterceptorContext.attempt`).
        public var attempt: Int
        /// When the stage started, in milliseconds after the send started.
        public var startMilliseconds: Double
        /// How long the stage took, everything after it included, in milliseconds.
        public var durationMilliseconds: Double
        /// The part of `durationMilliseconds` spent in this stage itself, outside `next`.
        public var ownMilliseconds: Double
        /// How many times the stage called `next`.
        public var nextCalls: Int
        /// What the stage changed in the request it passed to `next` (its last call).
        public var requestChanges: [Change]
        /// What the stage changed in the response `next` gave it (its last call) before returning it.
        public var responseChanges: [Change]
        /// How the stage ended: `200 OK`, or the error it threw.
        public var outcome: String
        /// The transport's type name (`CurlTransport`), on the `transport` stage only: which one
        /// sent the request is observed, not assumed.
        public var transport: String?
        /// The request's transport hints (``TransportHint``) that the transport did not apply, by
        /// name, on the `transport` stage only; `nil` when it applied every one.
        public var ignoredHints: [String]?
        /// Where the transport's time went up to the response head (``ResponseMetrics``), on the
        /// `transport` stage only; `nil` when the transport measured nothing.
        public var timeline: Timeline?
    }

    /// The phases a transport measured, in milliseconds, and its connection: a step's timeline.
    public struct Timeline: Codable, Sendable, Hashable {
        /// Each measured phase by name (`dns`, `connect`, `tls`, `send`, `wait`…), in order.
        public var phases: [Phase]
        /// Whether the connection was reused; `nil` when not known.
        public var reusedConnection: Bool?
        /// `address:port` of the connection, when known.
        public var remote: String?

        /// One measured phase.
        public struct Phase: Codable, Sendable, Hashable {
            /// The phase's name, as ``ResponseMetrics/phases`` gives it.
            public var name: String
            /// How long it took.
            public var milliseconds: Double
        }

        /// The timeline of `metrics`; `nil` when it measured nothing.
        init?(_ metrics: ResponseMetrics) {
            phases = metrics.phases.compactMap { name, duration in
                duration.map { Phase(name: name, milliseconds: $0.milliseconds) }
            }
            reusedConnection = metrics.reusedConnection
            remote = metrics.remoteAddress.map { address in
                (address.contains(":") ? "[\(address)]" : address) + (metrics.remotePort.map { ":\($0)" } ?? "")
            }
            if phases.isEmpty, reusedConnection == nil, remote == nil { return nil }
        }

        /// `dns 0.1 ms · connect 0.2 ms · wait 101.2 ms (new connection to 127.0.0.1:8080)`.
        var text: String {
            var line = phases.map { "\($0.name) \(Explanation.format($0.milliseconds)) ms" }.joined(separator: " · ")
            var connection: [String] = []
            if let reusedConnection { connection.append(reusedConnection ? "reused connection" : "new connection") }
            if let remote { connection.append("to \(remote)") }
            if !connection.isEmpty { line += (line.isEmpty ? "" : " ") + "(" + connection.joined(separator: " ") + ")" }
            return line
        }
    }

    /// The request as the caller sent it, as `METHOD URL` (redacted).
    public var request: String
    /// The steps, in the order they started.
    public var steps: [Step]

    /// Creates an explanation from its steps.
    public init(request: String, steps: [Step]) {
        self.request = request
        self.steps = steps
    }

    /// How the send ended, as the outermost stage returned it.
    public var outcome: String { steps.first?.outcome ?? "not sent" }

    /// How long the whole send took, in milliseconds.
    public var durationMilliseconds: Double { steps.first?.durationMilliseconds ?? 0 }

    /// The explanation as pretty-printed JSON with sorted keys, stable across runs but for timings.
    public func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    /// The explanation for a terminal: one line per step, indented by depth, changes below it.
    ///
    /// ```
    /// GET https://api.example.com/me → 200 OK in 41.2 ms
    ///   RetryInterceptor            41.2 ms  (own 20.3 ms, next ×2)  → 200 OK
    ///     AuthenticationInterceptor  10.1 ms  (own 0.2 ms)  → 503 Service Unavailable
    ///       + Authorization: <redacted>
    /// ```
    public var text: String {
        var lines = ["\(request) → \(outcome) in \(Self.format(durationMilliseconds)) ms"]
        let width = steps.map { $0.depth * 2 + $0.stage.count }.max() ?? 0
        for step in steps {
            let indent = String(repeating: "  ", count: step.depth + 1)
            let label = indent + step.stage
            let padding = String(repeating: " ", count: max(1, width + 4 - label.count + 2))
            var timing = "\(Self.format(step.durationMilliseconds)) ms"
            if step.stage != "transport" {
                timing += "  (own \(Self.format(step.ownMilliseconds)) ms"
                timing +=
                    step.nextCalls == 1
                    ? ")" : step.nextCalls == 0 ? ", answered itself)" : ", next ×\(step.nextCalls))"
            }
            let attempt = step.attempt > 1 ? "  [attempt \(step.attempt)]" : ""
            let via = step.transport.map { "  via \($0)" } ?? ""
            lines.append("\(label)\(padding)\(timing)  → \(step.outcome)\(attempt)\(via)")
            if let timeline = step.timeline { lines.append("\(indent)  \(timeline.text)") }
            if let hints = step.ignoredHints, !hints.isEmpty {
                lines.append(
                    "\(indent)  ! not applied by \(step.transport ?? "the transport"): \(hints.joined(separator: ", "))"
                )
            }
            for change in step.requestChanges { lines.append("\(indent)  \(Self.describe(change, response: false))") }
            for change in step.responseChanges { lines.append("\(indent)  \(Self.describe(change, response: true))") }
        }
        return lines.joined(separator: "\n")
    }

    static func describe(_ change: Change, response: Bool) -> String {
        let side = response ? "response " : ""
        let field = change.field ?? ""
        switch change.kind {
        case .method: return "method \(change.from ?? "") → \(change.to ?? "")"
        case .url: return "url \(change.from ?? "") → \(change.to ?? "")"
        case .headerAdded: return "+ \(side)\(field): \(change.to ?? "")"
        case .headerRemoved: return "- \(side)\(field): \(change.from ?? "")"
        case .headerChanged: return "~ \(side)\(field): \(change.from ?? "") → \(change.to ?? "")"
        case .bodyAdded: return "+ \(side)body \(change.to ?? "")"
        case .bodyRemoved: return "- \(side)body \(change.from ?? "")"
        case .bodyReplaced: return "~ \(side)body \(change.from ?? "") → \(change.to ?? "")"
        case .status: return "~ status \(change.from ?? "") → \(change.to ?? "")"
        }
    }

    static func format(_ milliseconds: Double) -> String {
        TextFormat.oneDecimal(milliseconds)
    }
}
