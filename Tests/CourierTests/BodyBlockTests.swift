import Courier
import Foundation
import HTTPTypes
import Testing

@Suite("Body blocks in requests")
struct BodyBlockTests {
    @Test func dataFromBytesKeepsEveryByte() async throws {
        let request = try build {
            Method.PUT
            RequestBody.data([0, 255, 13, 10], type: .octetStream)
        }
        #expect(lines(request.wireHeaderFields) == ["Content-Type: application/octet-stream", "Content-Length: 4"])
        #expect(try await request.body?.collect() == Data([0, 255, 13, 10]))
    }

    @Test func dataWithoutATypeSetsNoContentType() throws {
        let request = try build { RequestBody.data(Data("x".utf8)) }
        #expect(request.headerFields[.contentType] == nil)
    }

    @Test func jsonTextIsSentAsGiven() async throws {
        let request = try build {
            Method.POST
            RequestBody.json(text: #"{"a": [1, 2]}"#)
        }
        #expect(lines(request.wireHeaderFields) == ["Content-Type: application/json", "Content-Length: 13"])
        #expect(try await request.body?.collect() == Data(#"{"a": [1, 2]}"#.utf8))
    }

    @Test func aStreamOfUnknownLengthHasNoContentLength() throws {
        let request = try build {
            Method.POST
            RequestBody.stream(AsyncStream<Data> { $0.finish() }, type: MIMEType.Application.ndjson)
        }
        #expect(lines(request.wireHeaderFields) == ["Content-Type: application/x-ndjson"])
        #expect(request.body?.isReplayable == false)
    }

    @Test func aStreamWithALengthAnnouncesIt() throws {
        let request = try build {
            Method.POST
            RequestBody.stream(length: 10, type: .octetStream) {
                AsyncStream<Data> { continuation in
                    continuation.yield(Data(count: 10))
                    continuation.finish()
                }
            }
        }
        #expect(request.wireHeaderFields[.contentLength] == "10")
        #expect(request.body?.isReplayable == true)
    }

    @Test func anEmptyPostSendsContentLengthZeroButAGetDoesNot() throws {
        let post = try build {
            Method.POST
            RequestBody.empty
        }
        #expect(post.wireHeaderFields[.contentLength] == "0")
        let get = try build { RequestBody.empty }
        #expect(get.wireHeaderFields[.contentLength] == nil)
    }

    @Test func anExplicitContentLengthIsKept() throws {
        let request = try build {
            Header.custom("Content-Length").setValue("3")
            RequestBody.string("abc")
        }
        #expect(request.wireHeaderFields.filter { $0.name == .contentLength }.map(\.value) == ["3"])
    }
}

@Suite("Response")
struct ResponseTests {
    @Test func textAndContentTypeReadTheBody() throws {
        let request = try build { Method.GET }
        let response = Response(
            status: .ok, headerFields: [.contentType: "text/plain; charset=utf-8"],
            body: Data("héllo".utf8), request: request)
        #expect(response.text == "héllo")
        #expect(response.contentType?.essence == "text/plain")
        #expect(response.status.code == 200)
        #expect(response.request.url == request.url)
    }

    @Test func mimeEssenceDropsParametersAndCase() {
        #expect(MIMEType("Application/JSON ; charset=utf-8").essence == "application/json")
        #expect(MIMEType.plainText.charset("utf-8").rawValue == "text/plain; charset=utf-8")
        #expect(MIMEType.Image.png == .png)
        #expect(MIMEType.Multipart.formData.rawValue == "multipart/form-data")
    }
}
