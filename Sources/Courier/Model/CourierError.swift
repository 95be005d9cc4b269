/// The one error Courier throws: a code to switch on, a message for people, and the exchange it came from.
///
/// Every failure, from a header with a line feed in the builder to a server that hangs up mid-body,
/// surfaces as a `CourierError`, so callers handle one type and still know exactly what happened.
public struct CourierError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure this is; stable across releases, safe to switch on.
    public var code: Code
    /// A sentence for people: what was wrong and, where known, which block or stage caused it.
    ///
    /// Never holds a control character a terminal would act on (escape sequences, carriage
    /// returns): it often quotes what a server sent, and it is printed and logged as it is.
    public var message: String {
        didSet { message = TerminalSafeText.escaping(message) }
    }
    /// The builder block or component that raised the error (`"Header.custom"`, `"RequestBody.multipart"`).
    public var source: String?
    /// The pipeline stage the error arose in: an interceptor's name, `"redirects"`, or `"transport"`,
    /// so a failure in a chain of ten interceptors is attributable.
    public var stage: String?
    /// The request being built or sent, when there is one.
    public var request: Request? {
        get { exchange?.request }
        set { exchange = Exchange.holding(request: newValue, response: exchange?.response) }
    }
    /// The response received, when the failure came after one (unacceptable status, decoding failed).
    public var response: Response? {
        get { exchange?.response }
        set { exchange = Exchange.holding(request: exchange?.request, response: newValue) }
    }
    /// The error that caused this one, such as a `DecodingError` or a transport error.
    public var underlying: (any Error & Sendable)?

    /// The request and response, behind one reference: held inline they made the error 608 bytes,
    /// and every async function that catches or throws one keeps room for it in its task frame.
    private var exchange: Exchange?

    /// An error's request and response; replaced, never changed, so copies of the error stay apart.
    private final class Exchange: Sendable {
        let request: Request?
        let response: Response?

        private init(request: Request?, response: Response?) {
            self.request = request
            self.response = response
        }

        /// The box for `request` and `response`, or `nil` when there is neither.
        static func holding(request: Request?, response: Response?) -> Exchange? {
            request == nil && response == nil ? nil : Exchange(request: request, response: response)
        }
    }

    /// Creates an error; prefer the static helpers where one fits.
    public init(
        _ code: Code,
        _ message: String,
        source: String? = nil,
        request: Request? = nil,
        response: Response? = nil,
        underlying: (any Error & Sendable)? = nil
    ) {
        self.code = code
        self.message = TerminalSafeText.escaping(message)
        self.source = source
        self.stage = nil
        self.exchange = Exchange.holding(request: request, response: response)
        self.underlying = underlying
    }

    public var description: String {
        var text = "\(code): "
        if let stage, stage != source { text += "[\(stage)] " }
        if let source { text += "\(source): " }
        text += message
        if let underlying { text += " (\(TerminalSafeText.escaping("\(underlying)")))" }
        return text
    }
}

extension CourierError {
    /// The kind of a `CourierError`. A struct rather than an enum so new codes are not a breaking change.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The closed set behind the open-looking struct, so code inside the package (the C
        /// mapping) switches over every code and a new one fails to compile until it is mapped.
        package enum Kind: String, CaseIterable, Sendable {
            case invalidRequest, encodingFailed, bodyNotReplayable, cannotConnect, timedOut, cancelled
            case insecureConnection, invalidResponse, unacceptableStatus, unacceptableContentType
            case decodingFailed, limitExceeded, tooManyRedirects, authenticationFailed, interceptorFailed
            case pluginFailed, usedAfterFork, unknown
        }

        /// Which code this is.
        package let kind: Kind
        package init(_ kind: Kind) { self.kind = kind }
        public var description: String { kind.rawValue }

        /// The request could not be built: bad URL, header, body, or option.
        public static let invalidRequest = Code(.invalidRequest)
        /// A body could not be encoded (JSON, form, multipart, or an unreadable file).
        public static let encodingFailed = Code(.encodingFailed)
        /// The body cannot be sent again (a one-shot stream already consumed).
        public static let bodyNotReplayable = Code(.bodyNotReplayable)
        /// No connection could be made to the server.
        public static let cannotConnect = Code(.cannotConnect)
        /// A connect or total deadline passed.
        public static let timedOut = Code(.timedOut)
        /// The request was cancelled (task cancellation or an explicit cancel).
        public static let cancelled = Code(.cancelled)
        /// TLS failed or was refused (bad certificate, plain HTTP where HTTPS is required).
        public static let insecureConnection = Code(.insecureConnection)
        /// The server's reply was not valid HTTP, or broke off mid-message.
        public static let invalidResponse = Code(.invalidResponse)
        /// The response status was not one the caller accepts.
        public static let unacceptableStatus = Code(.unacceptableStatus)
        /// The response content type was not one the caller accepts.
        public static let unacceptableContentType = Code(.unacceptableContentType)
        /// The response body could not be decoded into the requested type.
        public static let decodingFailed = Code(.decodingFailed)
        /// A configured bound (header size, body size, redirects, decompression ratio) was exceeded.
        public static let limitExceeded = Code(.limitExceeded)
        /// Too many redirects were followed, or a redirect loop was found.
        public static let tooManyRedirects = Code(.tooManyRedirects)
        /// Credentials were refused and could not be refreshed (the refresh failed or was rate-limited).
        public static let authenticationFailed = Code(.authenticationFailed)
        /// An interceptor failed; `source` names it.
        public static let interceptorFailed = Code(.interceptorFailed)
        /// An interceptor plugin could not be loaded: a missing file or symbol, another ABI, or a failed init.
        public static let pluginFailed = Code(.pluginFailed)
        /// A transport or C client was used in a process `fork()` made after it was created: its
        /// connections and threads belong to the parent, so the send was refused at once. Make a
        /// new one in the child.
        public static let usedAfterFork = Code(.usedAfterFork)
        /// None of the above: an error that was not Courier's, seen where a `CourierError` must be given
        /// (`Client.load(_:)`); its `underlying` is the original.
        public static let unknown = Code(.unknown)
    }
}

extension CourierError {
    /// An `invalidRequest` error naming the builder block that rejected its input.
    static func invalidRequest(_ message: String, block: String) -> CourierError {
        CourierError(.invalidRequest, message, source: block)
    }

    /// This error as it leaves a stage of the pipeline: the stage and the request filled in where
    /// it has none, so it keeps those of the stage it arose in.
    func filledIn(stage: String? = nil, request: Request) -> CourierError {
        var error = self
        if error.stage == nil { error.stage = stage }
        if error.request == nil { error.request = request }
        return error
    }
}
