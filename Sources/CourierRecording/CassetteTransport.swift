public import Courier
import HTTPTypes
import Synchronization

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// A transport for your tests that answers from a cassette, a HAR file of recorded exchanges,
/// and records into it through a real transport when its mode says so: tests run offline and
/// repeatably against real answers, recorded once.
///
/// ```swift
/// let cassette = try CassetteTransport(cassette: fixtures.appending(path: "users.har"),
///                                      mode: .once, recordingThrough: CurlTransport())
/// let client = Client(transport: cassette)
/// ```
///
/// A request is answered by the first episode not yet replayed whose method and URL (and the
/// headers and body `matching` names) equal its own; each episode answers once, in recorded
/// order, so two identical requests get the two recorded answers. A request with no episode
/// fails with `cannotConnect`, its `underlying` error an `UnmatchedCassetteRequest` naming the
/// closest recorded requests. Recorded exchanges are added to the file as each body ends;
/// failed sends and bodies that broke off are not recorded.
///
/// The cassette is a `HARRecorder` archive: it opens in HAR viewers and may be edited by hand.
/// Secrets are hidden by default as `HARRecorder` hides them, so a cassette can be committed;
/// hidden values (a `Set-Cookie`) are replayed as the redaction's replacement. Pass
/// `redaction: nil` to record them as they were. Bodies are kept whole, up to
/// `Limits.maxBodyBytes`.
///
/// Sits below redirects, as every transport does: each hop is an episode of its own.
public final class CassetteTransport: Transport {
    private struct State {
        var archive: HTTPArchive
        /// Episodes already used; only the entries that were in the file when it was opened replay.
        var replayed = Set<Int>()
    }

    /// The cassette file.
    public let file: URL
    /// The record mode.
    public let mode: CassetteRecordMode
    /// What must match for an episode to answer.
    public let matching: CassetteMatching
    /// What is hidden in the cassette; `nil` when nothing is.
    public let redaction: Redaction?

    private let upstream: (any Transport)?
    private let recordsEverything: Bool
    private let replayableCount: Int
    private let state: Protected<State>

    /// Opens the cassette at `file`.
    ///
    /// - Parameters:
    ///   - file: the HAR file; it need not exist for `once` and `newEpisodes`.
    ///   - mode: when to record (`once` by default).
    ///   - matching: what must match for an episode to answer (method and URL by default).
    ///   - redaction: what to hide in recorded exchanges; `nil` records everything as it was.
    ///   - upstream: the real transport to record through; required when the mode may record.
    /// - Throws: `decodingFailed` when the file exists but is not a HAR document;
    ///   `invalidRequest` when the mode may record and no transport is given.
    public init(
        cassette file: URL, mode: CassetteRecordMode = .once, matching: CassetteMatching = .methodAndURL,
        redaction: Redaction? = Redaction(), recordingThrough upstream: (any Transport)? = nil
    ) throws(CourierError) {
        let exists = FileManager.default.fileExists(atPath: file.path)
        let archive = exists ? try HTTPArchive(contentsOf: file) : HTTPArchive()
        self.file = file
        self.mode = mode
        self.matching = matching
        self.redaction = redaction
        self.upstream = upstream
        recordsEverything = mode == .once && !exists
        replayableCount = archive.log.entries.count
        state = Protected(State(archive: archive))
        if upstream == nil, recordsEverything || mode == .newEpisodes {
            throw CourierError(
                .invalidRequest, "recording into \(file.lastPathComponent) needs a transport to record through",
                source: "CassetteTransport")
        }
    }

    /// The cassette's exchanges as they are now, recorded ones included.
    public var archive: HTTPArchive { state.withLock { $0.archive } }

    /// Whether this cassette records every request (mode `once` and no file when it was opened).
    public var isRecording: Bool { recordsEverything }

    /// The checks the transport it records through skips; a replay skips none.
    public var disabledSecurityChecks: [String] { upstream?.disabledSecurityChecks ?? [] }

    public nonisolated(nonsending) func send(_ request: Request, context: TransportContext) async throws -> Response {
        let transcriber = HARTranscriber(redaction: redaction, maxBodyBytes: Int(clamping: context.limits.maxBodyBytes))
        if recordsEverything { return try await record(request, context: context, transcriber: transcriber) }
        var request = request
        var body = HARTranscriber.RequestBodyCapture.none
        if matching.body, let requestBody = request.body {
            if requestBody.segments == nil {
                // A stream is read once here for matching, then sent from memory if it is recorded.
                request.body = .data(
                    try await requestBody.collect(upTo: transcriber.maxBodyBytes), type: requestBody.contentType)
            }
            body = await transcriber.captureBody(of: request)
        }
        let incoming = transcriber.request(
            request, body: body,
            secrets: transcriber.secrets(in: request.headerFields, url: request.url))
        let answer = state.withLock { state -> Result<HTTPArchive.Entry, UnmatchedCassetteRequest> in
            let entries = state.archive.log.entries.prefix(replayableCount)
            if let index = entries.indices.first(where: {
                !state.replayed.contains($0)
                    && matching.mismatch(between: entries[$0].request, and: incoming) == nil
            }) {
                state.replayed.insert(index)
                return .success(entries[index])
            }
            return .failure(unmatched(incoming, among: Array(entries), replayed: state.replayed))
        }
        switch answer {
        case .success(let entry):
            return try replay(entry, for: request)
        case .failure(let unmatched):
            if mode == .newEpisodes { return try await record(request, context: context, transcriber: transcriber) }
            throw CourierError(
                .cannotConnect, unmatched.description, source: "CassetteTransport", request: request,
                underlying: unmatched)
        }
    }

    private nonisolated(nonsending) func record(
        _ request: Request, context: TransportContext,
        transcriber: HARTranscriber
    ) async throws -> Response {
        guard let upstream else {
            throw CourierError(
                .invalidRequest, "no transport to record through", source: "CassetteTransport", request: request)
        }
        return try await HARExchange.recording(
            request, transcriber: transcriber,
            send: { try await upstream.send($0, context: context) }
        ) { entry, error throws(CourierError) in
            guard error == nil else { return }
            try self.append(entry)
        }
    }

    /// Adds a recorded episode and saves the cassette, so a test that stops early keeps what it recorded.
    private func append(_ entry: HTTPArchive.Entry) throws(CourierError) {
        try state.withLock { state throws(CourierError) in
            state.archive.log.entries.append(entry)
            try state.archive.write(to: file)
        }
    }

    private func replay(_ entry: HTTPArchive.Entry, for request: Request) throws(CourierError) -> Response {
        guard (100...999).contains(entry.response.status) else {
            throw CourierError(
                .invalidResponse, "the episode for \(entry.request.method) \(entry.request.url) has no response",
                source: "CassetteTransport", request: request)
        }
        var fields = HTTPFields()
        for header in entry.response.headers {
            if let name = HTTPField.Name(header.name) { fields.append(HTTPField(name: name, value: header.value)) }
        }
        let content = entry.response.content
        let body = content.text.flatMap { HARTranscriber.bytes(of: $0, encoding: content.encoding) } ?? Data()
        return Response(
            status: HTTPResponse.Status(code: entry.response.status, reasonPhrase: entry.response.statusText),
            headerFields: fields, bodyStream: ResponseBodyStream(body), request: request)
    }

    /// The error for `incoming`, with the three recorded requests nearest to it.
    private func unmatched(
        _ incoming: HTTPArchive.Request, among entries: [HTTPArchive.Entry],
        replayed: Set<Int>
    ) -> UnmatchedCassetteRequest {
        let target = "\(incoming.method) \(incoming.url)"
        let ranked = entries.indices.map { index in
            (
                index,
                UnmatchedCassetteRequest.editDistance(
                    target, "\(entries[index].request.method) \(entries[index].request.url)")
            )
        }.sorted { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0 < $1.0 }
        let candidates = ranked.prefix(3).map { index, _ in
            let recorded = entries[index].request
            let reason =
                matching.mismatch(between: recorded, and: incoming)
                ?? (replayed.contains(index) ? "already replayed" : "")
            return UnmatchedCassetteRequest.Candidate(
                index: index, method: recorded.method, url: recorded.url, reason: reason)
        }
        return UnmatchedCassetteRequest(
            cassette: file, method: incoming.method, url: incoming.url, candidates: candidates)
    }
}
