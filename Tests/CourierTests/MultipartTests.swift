import Courier
import Foundation
import HTTPTypes
import Testing

@Suite("Multipart bodies")
struct MultipartTests {
    @Test func fieldsAreEncodedByteForByte() async throws {
        let request = try post(
            .multipart(boundary: "B0und") {
                MultipartPart.field(name: "title", value: "Holiday")
                MultipartPart.field(name: "note", value: "two\r\nlines")
            })
        let expected =
            "--B0und\r\n"
            + "Content-Disposition: form-data; name=\"title\"\r\n\r\n"
            + "Holiday\r\n"
            + "--B0und\r\n"
            + "Content-Disposition: form-data; name=\"note\"\r\n\r\n"
            + "two\r\nlines\r\n"
            + "--B0und--\r\n"
        #expect(try await bodyText(request) == expected)
    }

    @Test func dataPartsCarryFilenameAndType() async throws {
        let request = try post(
            .multipart(boundary: "B0und") {
                MultipartPart.data(name: "blob", data: Data([0, 1, 2]))
                MultipartPart.data(name: "doc", filename: "a.json", data: Data("{}".utf8), type: .json)
            })
        let expected =
            Data("--B0und\r\n".utf8)
            + Data("Content-Disposition: form-data; name=\"blob\"\r\n".utf8)
            + Data("Content-Type: application/octet-stream\r\n\r\n".utf8)
            + Data([0, 1, 2]) + Data("\r\n--B0und\r\n".utf8)
            + Data("Content-Disposition: form-data; name=\"doc\"; filename=\"a.json\"\r\n".utf8)
            + Data("Content-Type: application/json\r\n\r\n".utf8)
            + Data("{}\r\n--B0und--\r\n".utf8)
        #expect(try await requestBody(request).collect() == expected)
    }

    @Test func filePartsDefaultToTheFileNameAndAGuessedType() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let notes = try directory.write("notes.TXT", Data("hi".utf8))
        let blob = try directory.write("blob.unknownext", Data("xy".utf8))
        let request = try post(
            .multipart(boundary: "B0und") {
                MultipartPart.file(name: "notes", fileURL: notes)
                MultipartPart.file(name: "blob", fileURL: blob)
                MultipartPart.file(name: "renamed", fileURL: notes, filename: "other.bin", type: .png)
            })
        let expected =
            "--B0und\r\n"
            + "Content-Disposition: form-data; name=\"notes\"; filename=\"notes.TXT\"\r\n"
            + "Content-Type: text/plain\r\n\r\n"
            + "hi\r\n--B0und\r\n"
            + "Content-Disposition: form-data; name=\"blob\"; filename=\"blob.unknownext\"\r\n"
            + "Content-Type: application/octet-stream\r\n\r\n"
            + "xy\r\n--B0und\r\n"
            + "Content-Disposition: form-data; name=\"renamed\"; filename=\"other.bin\"\r\n"
            + "Content-Type: image/png\r\n\r\n"
            + "hi\r\n--B0und--\r\n"
        #expect(try await bodyText(request) == expected)
    }

    @Test func streamedAndInMemoryStrategiesProduceIdenticalBytes() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let first = try directory.write("first.bin", Data((0..<5000).map { UInt8(truncatingIfNeeded: $0) }))
        let empty = try directory.write("empty.txt", Data())
        func body(_ strategy: MultipartStrategy) -> RequestBody {
            .multipart(strategy: strategy, boundary: "same") {
                MultipartPart.field(name: "a", value: "1")
                MultipartPart.file(name: "first", fileURL: first)
                MultipartPart.data(name: "b", data: Data("mid".utf8))
                MultipartPart.file(name: "empty", fileURL: empty)
                MultipartPart.file(name: "again", fileURL: first)
            }
        }
        let inMemory = try requestBody(try post(body(.inMemory)))
        let streamed = try requestBody(try post(body(.streamed(bufferSize: 777))))
        let expected = try await inMemory.collect()
        #expect(try await streamed.collect() == expected)
        #expect(inMemory.contentLength == Int64(expected.count))
        #expect(streamed.contentLength == Int64(expected.count))
        #expect(inMemory.segments?.count == 1)
        let shape = streamed.segments?.map { segment -> String in
            if case .file = segment { return "file" }
            return "bytes"
        }
        #expect(shape == ["bytes", "file", "bytes", "file", "bytes"])
    }

    @Test func bothStrategiesCanBeReplayed() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try directory.write("f.txt", Data("content".utf8))
        for strategy in [MultipartStrategy.inMemory, .streamed()] {
            let body = try requestBody(try post(.multipart(strategy: strategy) { .file(name: "f", fileURL: file) }))
            #expect(body.isReplayable)
            #expect(try await body.collect() == body.collect())
        }
    }

    @Test func quotesAndBackslashesAreEscapedAndLineBreaksDropped() async throws {
        let request = try post(
            .multipart(boundary: "B0und") {
                MultipartPart.data(
                    name: "a\"b\\c", filename: "evil\r\nX-Injected: 1\".txt", data: Data("x".utf8), type: .plainText)
            })
        let text = try await bodyText(request)
        #expect(
            text.contains(
                "Content-Disposition: form-data; name=\"a\\\"b\\\\c\"; filename=\"evilX-Injected: 1\\\".txt\"\r\n"))
        #expect(!text.contains("\r\nX-Injected"))
    }

    @Test func aPartTypeCannotInjectAHeader() async throws {
        let request = try post(
            .multipart(boundary: "B0und") {
                MultipartPart.data(name: "a", data: Data("x".utf8), type: "text/plain\r\nX-Injected: 1")
            })
        #expect(!(try await bodyText(request)).contains("\r\nX-Injected"))
    }

    @Test func extraHeadersFollowTheDisposition() async throws {
        let request = try post(
            .multipart(boundary: "B0und") {
                MultipartPart.field(name: "a", value: "x").header(.contentType, "text/plain; charset=utf-8")
            })
        let expected =
            "--B0und\r\n"
            + "Content-Disposition: form-data; name=\"a\"\r\n"
            + "Content-Type: text/plain; charset=utf-8\r\n\r\n"
            + "x\r\n--B0und--\r\n"
        #expect(try await bodyText(request) == expected)
    }

    @Test func theBuilderSupportsConditionsLoopsAndOptionals() async throws {
        let include = true
        let caption: String? = nil
        let tags = ["x", "y"]
        let request = try post(
            .multipart(boundary: "B0und") {
                if include {
                    MultipartPart.field(name: "included", value: "1")
                } else {
                    MultipartPart.field(name: "excluded", value: "1")
                }
                if let caption {
                    MultipartPart.field(name: "caption", value: caption)
                }
                for tag in tags {
                    MultipartPart.field(name: "tag", value: tag)
                }
            })
        let names = try await bodyText(request).split(separator: "\r\n").filter { $0.hasPrefix("Content-Disposition") }
        #expect(
            names == [
                "Content-Disposition: form-data; name=\"included\"",
                "Content-Disposition: form-data; name=\"tag\"",
                "Content-Disposition: form-data; name=\"tag\"",
            ])
    }

    @Test func wireHeadersCarryTheContentTypeAndExactLength() async throws {
        let request = try post(.multipart(boundary: "B0und") { .field(name: "a", value: "b") })
        let length = "--B0und\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nb\r\n--B0und--\r\n".utf8.count
        #expect(request.wireHeaderFields[.contentType] == "multipart/form-data; boundary=B0und")
        #expect(request.wireHeaderFields[.contentLength] == String(length))
    }

    @Test func theDefaultBoundaryIsRandomAndValid() throws {
        let first = try post(.multipart { .field(name: "a", value: "b") })
        let second = try post(.multipart { .field(name: "a", value: "b") })
        let type = try #require(first.headerFields[.contentType])
        #expect(type.hasPrefix("multipart/form-data; boundary=courier-"))
        #expect(type.count == "multipart/form-data; boundary=courier-".count + 24)
        #expect(type != second.headerFields[.contentType])
    }

    @Test(arguments: [
        ("simple-Boundary_1.2", "multipart/form-data; boundary=simple-Boundary_1.2"),
        ("it's+fine", "multipart/form-data; boundary=it's+fine"),
        ("a:b=c", "multipart/form-data; boundary=\"a:b=c\""),
        ("with space", "multipart/form-data; boundary=\"with space\""),
        ("(x),/?", "multipart/form-data; boundary=\"(x),/?\""),
    ])
    func boundariesThatAreNotTokensAreQuoted(boundary: String, contentType: String) throws {
        let request = try post(.multipart(boundary: boundary) { .field(name: "a", value: "b") })
        #expect(request.headerFields[.contentType] == contentType)
    }

    @Test(arguments: ["", String(repeating: "a", count: 71), "ends in space ", "quote\"", "semi;colon", "é", "tab\t"])
    func invalidBoundariesFailTheBuild(boundary: String) throws {
        let error = #expect(throws: CourierError.self) {
            try post(.multipart(boundary: boundary) { .field(name: "a", value: "b") })
        }
        #expect(error?.code == .invalidRequest)
        #expect(error?.source == "RequestBody.multipart")
    }

    @Test func aSeventyCharacterBoundaryIsAccepted() throws {
        let boundary = String(repeating: "a", count: 70)
        let request = try post(.multipart(boundary: boundary) { .field(name: "a", value: "b") })
        #expect(request.headerFields[.contentType] == "multipart/form-data; boundary=\(boundary)")
    }

    @Test func contentContainingTheBoundaryFailsTheBuild() throws {
        let error = #expect(throws: CourierError.self) {
            try post(.multipart(boundary: "B0und") { .field(name: "sneaky", value: "x\r\n--B0und--\r\n") })
        }
        #expect(error?.code == .encodingFailed)
        #expect(error?.source == "RequestBody.multipart")
    }

    @Test(arguments: [MultipartStrategy.inMemory, .streamed()])
    func aMissingFileFailsTheBuildNamingTheBlock(strategy: MultipartStrategy) throws {
        let missing = URL(fileURLWithPath: "/nonexistent/courier-\(UUID().uuidString).bin")
        let error = #expect(throws: CourierError.self) {
            try post(.multipart(strategy: strategy) { .file(name: "f", fileURL: missing) })
        }
        #expect(error?.code == .encodingFailed)
        #expect(error?.source == "RequestBody.multipart")
    }

    @Test(arguments: [MultipartStrategy.inMemory, .streamed()])
    func aDirectoryFailsTheBuild(strategy: MultipartStrategy) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let error = #expect(throws: CourierError.self) {
            try post(.multipart(strategy: strategy) { .file(name: "f", fileURL: directory.url) })
        }
        #expect(error?.code == .encodingFailed)
        #expect(error?.source == "RequestBody.multipart")
    }

    @Test func aNonPositiveBufferSizeFailsTheBuild() throws {
        let error = #expect(throws: CourierError.self) {
            try post(.multipart(strategy: .streamed(bufferSize: 0)) { .field(name: "a", value: "b") })
        }
        #expect(error?.code == .invalidRequest)
        #expect(error?.source == "RequestBody.multipart")
    }

    @Test func anExplicitChunkSizeOverridesTheBufferSize() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try directory.write("f.bin", Data(repeating: 7, count: 10_000))
        let body = try requestBody(
            try post(
                .multipart(strategy: .streamed(bufferSize: 4096)) {
                    MultipartPart.file(name: "f", fileURL: file)
                }))
        #expect(body.preferredChunkSize == 4096)
        var fileChunkSizes: [Int] = []
        for try await chunk in try body.chunks(chunkSize: 1000) where chunk.allSatisfy({ $0 == 7 }) {
            fileChunkSizes.append(chunk.count)
        }
        #expect(fileChunkSizes == Array(repeating: 1000, count: 10))
    }

    @Test func streamingLargeFilesReadsThemInBufferSizedChunks() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let big = try directory.writePattern("big.bin", seed: 1, length: 8 << 20)
        let medium = try directory.writePattern("medium.bin", seed: 2, length: 3 << 20)
        let bufferSize = 100_000
        let body = try requestBody(
            try post(
                .multipart(strategy: .streamed(bufferSize: bufferSize), boundary: "B0und") {
                    MultipartPart.field(name: "title", value: "large")
                    MultipartPart.file(name: "big", fileURL: big)
                    MultipartPart.file(name: "medium", fileURL: medium)
                }))

        let head = Data(
            ("--B0und\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nlarge\r\n"
                + "--B0und\r\nContent-Disposition: form-data; name=\"big\"; filename=\"big.bin\"\r\n"
                + "Content-Type: application/octet-stream\r\n\r\n").utf8)
        let middle = Data(
            ("\r\n--B0und\r\nContent-Disposition: form-data; name=\"medium\"; filename=\"medium.bin\"\r\n"
                + "Content-Type: application/octet-stream\r\n\r\n").utf8)
        let tail = Data("\r\n--B0und--\r\n".utf8)
        var expected = FNV1a()
        expected.add(head)
        try expected.add(fileAt: big)
        expected.add(middle)
        try expected.add(fileAt: medium)
        expected.add(tail)

        var received = FNV1a()
        var total: Int64 = 0
        var largestChunk = 0
        for try await chunk in try body.chunks() {
            largestChunk = max(largestChunk, chunk.count)
            total += Int64(chunk.count)
            received.add(chunk)
        }

        #expect(largestChunk == bufferSize)
        #expect(total == body.contentLength)
        #expect(total == Int64((11 << 20) + head.count + middle.count + tail.count))
        #expect(received.value == expected.value)
        // The chunk bound above is the proof that nothing is loaded whole; resident memory of this
        // process, shared with suites running in parallel, would prove nothing. The memory ceiling
        // itself is checked in a process of its own (Benchmarks/memory-check).
    }
}

/// Builds a POST to a fixed URL with `body`, as `Request { … }` will once `BaseURL` is merged.
private func post(_ body: RequestBody) throws -> Request {
    var draft = RequestDraft()
    draft.method = .post
    draft.url = try #require(URLComponents(string: "http://127.0.0.1/upload"))
    try body.apply(to: &draft)
    return try draft.build()
}

private func requestBody(_ request: Request) throws -> RequestBody {
    try #require(request.body)
}

private func bodyText(_ request: Request) async throws -> String {
    String(decoding: try await requestBody(request).collect(), as: UTF8.self)
}

/// The 64-bit FNV-1a hash, to compare megabytes of output without holding them.
private struct FNV1a {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func add(_ data: Data) {
        data.withUnsafeBytes { bytes in
            for byte in bytes { value = (value ^ UInt64(byte)) &* 0x100_0000_01b3 }
        }
    }

    mutating func add(fileAt url: URL) throws {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty { add(chunk) }
    }
}

/// A fresh directory under the temporary directory; call `remove()` when done.
private struct TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("courier-multipart-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func remove() { try? FileManager.default.removeItem(at: url) }

    func write(_ name: String, _ data: Data) throws -> URL {
        let file = url.appendingPathComponent(name)
        try data.write(to: file)
        return file
    }

    /// Writes `length` bytes of a pattern that differs per `seed`, one mebibyte at a time.
    func writePattern(_ name: String, seed: UInt8, length: Int) throws -> URL {
        let file = try write(name, Data())
        let handle = try FileHandle(forWritingTo: file)
        defer { try? handle.close() }
        let block = Data((0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ ($0 >> 10)) &+ seed })
        var written = 0
        while written < length {
            let count = min(block.count, length - written)
            try handle.write(contentsOf: block.prefix(count))
            written += count
        }
        return file
    }
}
