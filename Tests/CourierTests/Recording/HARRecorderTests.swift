import Courier
import CourierCurl
import CourierRecording
import CourierTestServer
import Foundation
import HTTPTypes
import Testing

@Suite struct HARRecorderTests {
    @Test func recordsTextBodiesAsTextAndBinaryBodiesAsBase64() async throws {
        try await withTestServer { server in
            let recorder = HARRecorder()
            let transport = CurlTransport()
            let client = Client(transport: transport, interceptors: [recorder])
            let post = Request(
                method: .post, url: server.baseURL.appendingPathComponent("anything/users"),
                headerFields: [.contentType: "application/json"], body: .json(text: #"{"name":"ada"}"#))
            let echoed = try await client.send(post)
            let bytes = try await client.send(Request(url: server.baseURL.appendingPathComponent("bytes/300")))
            await transport.shutdown()

            let archive = recorder.archive
            #expect(archive.log.version == "1.2")
            #expect(archive.log.creator.name == "Courier")
            try #require(archive.log.entries.count == 2)
            let first = archive.log.entries[0]
            #expect(first.request.method == "POST")
            #expect(first.request.postData?.mimeType == "application/json")
            #expect(first.request.postData?.text == #"{"name":"ada"}"#)
            #expect(first.request.postData?.encoding == nil)
            #expect(first.request.bodySize == 14)
            #expect(first.response.status == 200)
            #expect(first.response.content.text == echoed.text)
            #expect(first.response.content.size == echoed.body.count)
            let second = archive.log.entries[1]
            #expect(second.response.content.encoding == "base64")
            #expect(second.response.content.text.flatMap { Data(base64Encoded: $0) } == bytes.body)
            #expect(second.response.content.size == 300)
        }
    }

    @Test func hidesCredentialsCookiesAndConfiguredQueryValuesByDefault() async throws {
        let mock = MockTransport { _ in
            MockResponse(headerFields: [.setCookie: "session=s3cr3t-value; Path=/; HttpOnly"])
        }
        let recorder = HARRecorder(redaction: Redaction(queryItems: ["api_key"]))
        let client = Client(transport: mock, interceptors: [recorder])
        let request = Request(
            url: URL(string: "https://api.example.com/v1/me?api_key=k3y-value-123&page=2")!,
            headerFields: [.authorization: "Bearer t0ken-value", .cookie: "id=c00kie-value"])
        _ = try await client.send(request)

        let entry = try #require(recorder.entries.first)
        let json = String(decoding: try recorder.archive.jsonData(), as: UTF8.self)
        for secret in ["t0ken-value", "c00kie-value", "k3y-value-123", "s3cr3t-value"] {
            #expect(!json.contains(secret), "\(secret) leaked into the archive")
        }
        #expect(entry.request.headers.contains(HTTPArchive.NameValue(name: "Authorization", value: "<redacted>")))
        #expect(entry.request.cookies == [HTTPArchive.Cookie(name: "id", value: "<redacted>")])
        #expect(entry.request.queryString.contains(HTTPArchive.NameValue(name: "page", value: "2")))
        #expect(
            entry.response.cookies == [
                HTTPArchive.Cookie(name: "session", value: "<redacted>", path: "/", httpOnly: true)
            ])
    }

    @Test func redactionCanBeTurnedOff() async throws {
        let recorder = HARRecorder(redaction: nil)
        let client = Client(transport: MockTransport { _ in .text("ok") }, interceptors: [recorder])
        _ = try await client.send(
            Request(url: URL(string: "https://api.example.com/")!, headerFields: [.authorization: "Bearer t0ken-value"])
        )
        #expect(
            recorder.entries.first?.request.headers.contains(
                HTTPArchive.NameValue(name: "Authorization", value: "Bearer t0ken-value")) == true)
    }

    @Test func aStreamedBodyIsRecordedWhenTheCallerHasReadItToTheEnd() async throws {
        try await withTestServer { server in
            let recorder = HARRecorder(maxBodyBytes: 1000)
            let transport = CurlTransport()
            let client = Client(transport: transport, interceptors: [recorder])
            let response = try await client.stream(Request(url: server.baseURL.appendingPathComponent("bytes/5000")))
            #expect(response.isStreaming)
            #expect(recorder.entries.isEmpty)
            var received = Data()
            for try await chunk in try #require(response.bodyStream) { received.append(chunk) }
            await transport.shutdown()

            #expect(received.count == 5000)
            let entry = try #require(recorder.entries.first)
            #expect(entry.response.content.size == 5000)
            #expect(entry.response.content.text.flatMap { Data(base64Encoded: $0) } == received.prefix(1000))
            #expect(entry.response.content.comment?.contains("1000 of 5000 bytes") == true)
            #expect(
                entry.timings.dns >= 0 && entry.timings.connect >= 0 && entry.timings.ssl == -1,
                "libcurl measures DNS and connect; plain HTTP has no TLS")
            #expect(entry.serverIPAddress == "127.0.0.1")
            #expect(entry.timings.wait >= 0 && entry.timings.receive >= 0 && entry.timings.send >= 0)
            #expect(entry.time == entry.timings.total)
        }
    }

    @Test func aDiscardedBodyIsRecordedWithTheBytesThatPassed() async throws {
        let recorder = HARRecorder()
        let client = Client(transport: MockTransport { _ in .text("never read") }, interceptors: [recorder])
        let response = try await client.stream(Request(url: URL(string: "https://api.example.com/")!))
        response.bodyStream?.discard()
        let entry = try #require(recorder.entries.first)
        #expect(entry.response.content.size == 0)
        #expect(entry.response.comment?.contains("discarded") == true)
    }

    @Test func aFailedSendIsRecordedWithStatusZeroAndTheError() async throws {
        let recorder = HARRecorder()
        let client = Client(transport: MockTransport(), interceptors: [recorder])
        await #expect(throws: CourierError.self) {
            _ = try await client.send(Request(url: URL(string: "https://api.example.com/gone")!))
        }
        let entry = try #require(recorder.entries.first)
        #expect(entry.response.status == 0)
        #expect(entry.response.comment?.contains("MockTransport has no response") == true)
    }

    @Test func theWrittenArchiveIsValidHAR12AndReadsBack() async throws {
        try await withScratchDirectory { directory in
            try await withTestServer { server in
                let recorder = HARRecorder()
                let transport = CurlTransport()
                let client = Client(transport: transport, interceptors: [recorder])
                _ = try await client.send(
                    Request(
                        url: url(server.baseURL, "echo/a?x=1&y=two"),
                        headerFields: [.authorization: "Bearer t0ken-value", .cookie: "a=1; b=2"]))
                _ = try await client.send(
                    Request(
                        method: .put, url: server.baseURL.appendingPathComponent("anything"),
                        body: .data(Data([0, 1, 2, 255]), type: .octetStream)))
                _ = try await client.send(Request(url: server.baseURL.appendingPathComponent("status/404")))
                _ = try await client.send(Request(url: server.baseURL.appendingPathComponent("bytes/64")))
                await transport.shutdown()

                let file = directory.appendingPathComponent("session.har")
                try recorder.write(to: file)
                #expect(try HTTPArchive(contentsOf: file) == recorder.archive)
                #expect(recorder.archive.log.entries[1].request.postData?.encoding == "base64")
                try await expectValidHAR(file)
            }
        }
    }
}
