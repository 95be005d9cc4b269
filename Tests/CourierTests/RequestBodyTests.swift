import Courier
import Foundation
import Testing

@Suite("Request bodies")
struct RequestBodyTests {
    @Test func bytesAreReplayableAndKnowTheirLength() async throws {
        let body = RequestBody.data(Data("hello".utf8), type: .plainText)
        #expect(body.isReplayable)
        #expect(body.contentLength == 5)
        #expect(try await body.collect() == Data("hello".utf8))
        #expect(try await body.collect() == Data("hello".utf8))
    }

    @Test func oneShotStreamRefusesASecondSend() async throws {
        let stream = AsyncStream<Data> { continuation in
            continuation.yield(Data("a".utf8))
            continuation.finish()
        }
        let body = RequestBody.stream(stream)
        #expect(!body.isReplayable)
        #expect(try await body.collect() == Data("a".utf8))
        let error = await #expect(throws: CourierError.self) { try await body.collect() }
        #expect(error?.code == .bodyNotReplayable)
    }

    @Test func restartableStreamReplays() async throws {
        let body = RequestBody.stream(length: 2) {
            AsyncStream<Data> { continuation in
                continuation.yield(Data("ab".utf8))
                continuation.finish()
            }
        }
        #expect(body.isReplayable)
        #expect(try await body.collect() == Data("ab".utf8))
        #expect(try await body.collect() == Data("ab".utf8))
    }

    @Test func collectStopsAtTheLimit() async throws {
        let body = RequestBody.data(Data(repeating: 1, count: 10))
        let error = await #expect(throws: CourierError.self) { try await body.collect(upTo: 9) }
        #expect(error?.code == .limitExceeded)
    }
}
