import Courier
import CourierTestServer
import Foundation
import HTTPTypes
import Testing

/// `Client.download(_:to:resume:)` against `/range/{n}`, which honours `Range` and `If-Range`
/// and can drop the connection mid-body: a broken download leaves its part, and resuming sends
/// the rest only when the server still has the same file.
@Suite("Transport conformance: resumable downloads", .timeLimit(.minutes(1)))
struct DownloadConformanceTests {
    private static let size = 200_000

    private func destination() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("courier-download-\(UUID())").path
    }

    private func remove(_ path: String) {
        for file in [path, path + ".part", path + ".part.validator"] {
            try? FileManager.default.removeItem(atPath: file)
        }
    }

    private func isWhole(_ path: String) throws -> Bool {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return data.count == Self.size && CountingBytesStream.matches(data, at: 0)
    }

    @Test(arguments: TransportUnderTest.all)
    func aBrokenDownloadResumesFromItsPart(transport: TransportUnderTest) async throws {
        let path = destination()
        defer { remove(path) }
        try await transport.withClient { client, server in
            let broken = try Request { BaseURL(server.baseURL.absoluteString + "/range/\(Self.size)?drop_after=70000") }
            await #expect(throws: CourierError.self) { try await client.download(broken, to: path) }
            #expect(!FileManager.default.fileExists(atPath: path))
            let kept = try #require(
                try? FileManager.default.attributesOfItem(atPath: path + ".part")[.size] as? NSNumber)
            #expect(kept.intValue > 0 && kept.intValue <= 70_000)
            let whole = try Request { BaseURL(server.baseURL.absoluteString + "/range/\(Self.size)") }
            let response = try await client.download(whole, to: path, resume: true)
            #expect(response.status.code == 206)
            #expect(response.request.headerFields[.range] == "bytes=\(kept.intValue)-")
            #expect(response.request.headerFields[.ifRange] == "\"range-\(Self.size)\"")
            #expect(try isWhole(path))
            #expect(!FileManager.default.fileExists(atPath: path + ".part"))
            #expect(!FileManager.default.fileExists(atPath: path + ".part.validator"))
        }
    }

    /// A server that ignores `Range`, or whose file changed (`If-Range` fails), sends it all: the download starts over.
    @Test(arguments: TransportUnderTest.all)
    func aWholeAnswerStartsOver(transport: TransportUnderTest) async throws {
        try await transport.withClient { client, server in
            for query in ["ignore_range=true", "etag=changed"] {
                let path = destination()
                defer { remove(path) }
                let base = server.baseURL.absoluteString + "/range/\(Self.size)"
                _ = try? await client.download(try Request { BaseURL(base + "?drop_after=50000") }, to: path)
                let response = try await client.download(
                    try Request { BaseURL(base + "?" + query) }, to: path, resume: true)
                #expect(response.status.code == 200, "\(query)")
                #expect(try isWhole(path), "\(query)")
            }
        }
    }

    /// A part that already holds the whole file gets a 416 for the rest, which completes it.
    @Test(arguments: TransportUnderTest.all)
    func aWholePartIsCompletedByA416(transport: TransportUnderTest) async throws {
        let path = destination()
        defer { remove(path) }
        try await transport.withClient { client, server in
            try CountingBytesStream.bytes(count: Self.size).write(to: URL(fileURLWithPath: path + ".part"))
            try "\"range-\(Self.size)\"".write(toFile: path + ".part.validator", atomically: true, encoding: .utf8)
            let request = try Request { BaseURL(server.baseURL.absoluteString + "/range/\(Self.size)") }
            #expect(try await client.download(request, to: path, resume: true).status.code == 416)
            #expect(try isWhole(path))
        }
    }

    @Test(arguments: TransportUnderTest.all)
    func anErrorStatusMakesNoFile(transport: TransportUnderTest) async throws {
        let path = destination()
        defer { remove(path) }
        try await transport.withClient { client, server in
            let request = try Request { BaseURL(server.baseURL.absoluteString + "/status/404") }
            let error = try await #require(throws: CourierError.self) { try await client.download(request, to: path) }
            #expect(error.code == .unacceptableStatus && error.response?.status.code == 404)
            #expect(
                !FileManager.default.fileExists(atPath: path) && !FileManager.default.fileExists(atPath: path + ".part")
            )
        }
    }
}
