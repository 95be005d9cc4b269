import Foundation
import HTTPTypes
import Testing

@testable import Courier

@Suite("Response body buffer state machine")
struct ResponseBodyBufferTests {
    @Test func writesPastTheHighWatermarkPauseAndDrainingResumes() {
        var buffer = ResponseBodyBuffer(highWatermark: 10, lowWatermark: 4)
        #expect(buffer.write(Data(count: 6)) == .produceMore)
        #expect(buffer.write(Data(count: 6)) == .pause)
        #expect(buffer.read() == .deliver(Data(count: 6), resumeProducer: false))
        #expect(buffer.read() == .deliver(Data(count: 6), resumeProducer: true))
        #expect(buffer.read() == .wait)
    }

    @Test func theEndIsReportedOnlyAfterEveryChunk() {
        var buffer = ResponseBodyBuffer(highWatermark: 100, lowWatermark: 10)
        _ = buffer.write(Data([1]))
        buffer.finish(.finished)
        #expect(buffer.read() == .deliver(Data([1]), resumeProducer: false))
        #expect(buffer.read() == .end)
        #expect(buffer.read() == .end)
    }

    @Test func aFailureIsReportedAfterBufferedChunks() {
        var buffer = ResponseBodyBuffer(highWatermark: 100, lowWatermark: 10)
        _ = buffer.write(Data([1]))
        buffer.finish(.failed(.invalidResponse))
        #expect(buffer.read() == .deliver(Data([1]), resumeProducer: false))
        #expect(buffer.read() == .fail)
    }

    @Test func abandoningTellsTheProducerToAbortOnce() {
        var buffer = ResponseBodyBuffer(highWatermark: 100, lowWatermark: 10)
        _ = buffer.write(Data([1]))
        let first = buffer.abandon()
        let second = buffer.abandon()
        #expect(first)
        #expect(!second)
        #expect(buffer.write(Data([2])) == .abort)
        #expect(buffer.bufferedBytes == 0)
    }

    @Test func abandoningAfterTheEndAbortsNothing() {
        var buffer = ResponseBodyBuffer(highWatermark: 100, lowWatermark: 10)
        buffer.finish(.finished)
        let mustAbort = buffer.abandon()
        #expect(!mustAbort)
    }

    @Test func manyChunksAreCompactedWithoutLosingOrder() {
        var buffer = ResponseBodyBuffer(highWatermark: .max, lowWatermark: 0)
        for byte in 0..<200 { _ = buffer.write(Data([UInt8(byte)])) }
        for byte in 0..<200 { #expect(buffer.read() == .deliver(Data([UInt8(byte)]), resumeProducer: false)) }
        #expect(buffer.read() == .wait)
    }
}

@Suite("Response body stream")
struct ResponseBodyStreamTests {
    @Test func aConsumerWaitingForDataIsWokenByAWrite() async throws {
        let (stream, writer) = ResponseBodyStream.makeStream()
        async let collected = stream.collect(upTo: 100)
        try await Task.sleep(for: .milliseconds(20))
        writer.write(Data("ab".utf8))
        writer.write(Data("c".utf8))
        writer.finish()
        #expect(try await collected == Data("abc".utf8))
    }

    @Test func backpressurePausesTheProducerUntilTheConsumerCatchesUp() async throws {
        let resumes = Counter()
        let (stream, writer) = ResponseBodyStream.makeStream(
            highWatermark: 8, lowWatermark: 4, onResume: { resumes.increment() })
        #expect(writer.write(Data(count: 5)) == .produceMore)
        #expect(writer.write(Data(count: 5)) == .pause)
        var iterator = stream.makeAsyncIterator()
        _ = try await iterator.next()
        #expect(resumes.value == 0)
        _ = try await iterator.next()
        #expect(resumes.value == 1)
        writer.finish()
        #expect(try await iterator.next() == nil)
    }

    @Test func aFailedBodyThrowsItsError() async throws {
        let (stream, writer) = ResponseBodyStream.makeStream()
        writer.write(Data([1]))
        writer.fail(CourierError(.invalidResponse, "connection closed mid-body"))
        let error = await #expect(throws: CourierError.self) { try await stream.collect(upTo: 100) }
        #expect(error?.code == .invalidResponse)
    }

    @Test func exceedingTheCollectLimitAbortsTheTransfer() async throws {
        let aborted = Counter()
        let (stream, writer) = ResponseBodyStream.makeStream(onAbort: { aborted.increment() })
        writer.write(Data(count: 11))
        let error = await #expect(throws: CourierError.self) { try await stream.collect(upTo: 10) }
        #expect(error?.code == .limitExceeded)
        #expect(aborted.value == 1)
        #expect(writer.write(Data(count: 1)) == .abort)
    }

    @Test func droppingAnUnreadStreamAbortsTheTransfer() {
        let aborted = Counter()
        var writer: ResponseBodyStream.Writer?
        do {
            let made = ResponseBodyStream.makeStream(onAbort: { aborted.increment() })
            writer = made.writer
            _ = made.stream
        }
        #expect(aborted.value == 1)
        #expect(writer?.write(Data([1])) == .abort)
    }

    @Test func discardAbortsButAFinishedBodyIsLeftAlone() async throws {
        let aborts = Counter()
        let (stream, _) = ResponseBodyStream.makeStream(onAbort: { aborts.increment() })
        stream.discard()
        stream.discard()
        #expect(aborts.value == 1)
        let buffered = ResponseBodyStream(Data("done".utf8))
        buffered.discard()
        #expect(try await buffered.collect(upTo: 100) == Data("done".utf8))
        let finishedAborts = Counter()
        let (written, writer) = ResponseBodyStream.makeStream(onAbort: { finishedAborts.increment() })
        _ = writer.write(Data("sent".utf8))
        writer.finish()
        written.discard()
        #expect(finishedAborts.value == 0)
    }

    @Test func cancellingAWaitingConsumerAbortsAndThrowsCancelled() async throws {
        let aborted = Counter()
        let (stream, writer) = ResponseBodyStream.makeStream(onAbort: { aborted.increment() })
        let task = Task { try await stream.collect(upTo: 100) }
        try await Task.sleep(for: .milliseconds(20))
        task.cancel()
        let result = await task.result
        let error = #expect(throws: CourierError.self) { try result.get() }
        #expect(error?.code == .cancelled)
        #expect(aborted.value == 1)
        #expect(writer.write(Data([1])) == .abort)
    }

    @Test func aCompleteBodyIsCollectedWholeAndOnlyOnce() async throws {
        let stream = ResponseBodyStream(Data("whole".utf8))
        #expect(stream.expectedLength == 5)
        #expect(try await stream.collect(upTo: 100) == Data("whole".utf8))
        await #expect(throws: CourierError.self) { try await stream.collect(upTo: 100) }
    }

    @Test func aCompleteBodyOverTheCollectLimitIsRefused() async throws {
        let stream = ResponseBodyStream(Data(count: 10))
        let error = await #expect(throws: CourierError.self) { try await stream.collect(upTo: 9) }
        #expect(error?.code == .limitExceeded)
    }

    @Test func aCompleteBodyIteratesAsOneChunkAndAnEmptyOneAsNone() async throws {
        var chunks: [Data] = []
        for try await chunk in ResponseBodyStream(Data("ab".utf8)) { chunks.append(chunk) }
        #expect(chunks == [Data("ab".utf8)])
        var empty = 0
        for try await _ in ResponseBodyStream(Data()) { empty += 1 }
        #expect(empty == 0)
    }

    @Test func aBodyCanBeReadOnlyOnce() async throws {
        let stream = ResponseBodyStream(Data("x".utf8))
        #expect(try await stream.collect(upTo: 10) == Data("x".utf8))
        let error = await #expect(throws: CourierError.self) { try await stream.collect(upTo: 10) }
        #expect(error?.code == .bodyNotReplayable)
    }

    @Test func collectingAResponseBuffersItsStream() async throws {
        let request = try build { Method.GET }
        let response = Response(
            status: .ok, headerFields: [:], bodyStream: ResponseBodyStream(Data("hi".utf8)), request: request)
        #expect(response.isStreaming)
        let collected = try await response.collectingBody(upTo: 10)
        #expect(!collected.isStreaming)
        #expect(collected.text == "hi")
    }
}
