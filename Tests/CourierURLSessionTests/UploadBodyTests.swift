import Courier
import Foundation
import Testing

@testable import CourierURLSession

/// The forms a request body takes for URLSession, and the spool a stream is written to.
@Suite struct UploadBodyTests {
    private func request(_ body: RequestBody) throws -> Request {
        try Request {
            BaseURL("https://api.example.com")
            Method.POST
            body
        }
    }

    @Test func bytesStayInMemory() async throws {
        guard case .bytes(let data) = try await UploadBody.prepare(try request(.string("hello"))) else {
            Issue.record("bytes were not sent as bytes")
            return
        }
        #expect(data == Data("hello".utf8))
    }

    @Test func aStreamIsSpooledToAFileThatIsRemovedAfterwards() async throws {
        let chunks = AsyncStream<Data> { continuation in
            continuation.yield(Data("one,".utf8))
            continuation.yield(Data("two".utf8))
            continuation.finish()
        }
        let upload = try await UploadBody.prepare(try request(.stream(chunks)))
        guard case .file(let url, spooled: true) = upload else {
            Issue.record("the stream was not spooled")
            return
        }
        #expect(try Data(contentsOf: url) == Data("one,two".utf8))
        upload.removeSpooledFile()
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }

    @Test func aFailingStreamLeavesNoSpoolAndNamesTheFailure() async throws {
        struct Broken: Error {}
        let chunks = AsyncThrowingStream<Data, any Error> { continuation in
            continuation.yield(Data("partial".utf8))
            continuation.finish(throwing: Broken())
        }
        await #expect(throws: CourierError.self) {
            _ = try await UploadBody.prepare(try request(.stream(chunks)))
        }
    }
}
