import Courier
import CourierFoundation
import Foundation
import HTTPTypes
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Request builder")
struct RequestBuilderTests {
    @Test func everyMethodBlockSetsItsMethod() throws {
        let cases: [(Method, HTTPRequest.Method)] = [
            (.GET, .get), (.POST, .post), (.PUT, .put), (.DELETE, .delete), (.PATCH, .patch),
            (.HEAD, .head), (.OPTIONS, .options), (.TRACE, .trace), (.CONNECT, .connect),
            (.custom("LINK"), HTTPRequest.Method("LINK")!),
        ]
        for (block, expected) in cases {
            #expect(try build { block }.method == expected)
        }
    }

    @Test func theMethodDefaultsToGET() throws {
        #expect(try build { Accept(.json) }.method == .get)
    }

    @Test func controlFlowSelectsBlocks() throws {
        enum Format { case json, csv }
        let format = Format.csv
        let verbose = true
        let token: String? = nil
        let tags = ["a", "b"]
        let request = try build {
            if verbose { Header.custom("X-Verbose").setValue("1") }
            if let token { Authorization.bearer(token) } else { Header.custom("X-Anonymous").setValue("1") }
            switch format {
            case .json: Accept(.json)
            case .csv: Accept(.Text.csv)
            }
            for tag in tags { Header.custom("X-Tag").addValue(tag) }
            if #available(macOS 13, *) { Method.POST }
        }
        #expect(lines(request.headerFields) == ["X-Verbose: 1", "X-Anonymous: 1", "Accept: text/csv", "X-Tag: a, b"])
        #expect(request.method == .post)
    }

    @Test func theLastBodyWins() async throws {
        let request = try build {
            RequestBody.string("first")
            RequestBody.data(Data([1, 2, 3]), type: .octetStream)
        }
        #expect(try await request.body?.collect() == Data([1, 2, 3]))
        #expect(request.headerFields[.contentType] == "application/octet-stream")
    }

    @Test func stringBodiesDefaultToPlainTextUTF8() async throws {
        let request = try build { RequestBody.string("héllo") }
        #expect(request.headerFields[.contentType] == "text/plain; charset=utf-8")
        #expect(try await request.body?.collect() == Data("héllo".utf8))
        #expect(request.wireHeaderFields[.contentLength] == "6")
    }

    @Test func fileBodiesKnowTheirLengthUpFront() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("courier-\(UUID()).bin")
        try Data(repeating: 7, count: 200_000).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let request = try build {
            Method.PUT
            RequestBody.file(file, type: .octetStream)
        }
        let body = try #require(request.body)
        #expect(body.contentLength == 200_000)
        #expect(body.isReplayable)
        #expect(body.segments == [.file(file, length: 200_000)])
        var sizes: [Int] = []
        for try await chunk in try body.chunks(chunkSize: 65_536) { sizes.append(chunk.count) }
        #expect(sizes == [65_536, 65_536, 65_536, 3_392])
    }

    @Test func groupsAreReusable() throws {
        let jsonAPI = Group {
            Accept(.json)
            ContentType(.json)
        }
        let request = try build {
            jsonAPI
            Method.POST
        }
        #expect(lines(request.headerFields) == ["Accept: application/json", "Content-Type: application/json"])
    }

    @Test func updatingEditsACopy() throws {
        let original = try build {
            Accept(.json)
            Header.custom("X-A").setValue("1")
        }
        let edited = try original.updating {
            Method.DELETE
            Header.custom("X-A").remove()
        }
        #expect(original.method == .get)
        #expect(original.headerFields[HTTPField.Name("X-A")!] == "1")
        #expect(edited.method == .delete)
        #expect(lines(edited.headerFields) == ["Accept: application/json"])
        #expect(edited.url == original.url)
    }

    @Test func knobsAreCarriedAsOptions() throws {
        let request = try build {
            Timeout(.milliseconds(1500))
            CachePolicy(.reloadIgnoringLocalCacheData)
            NetworkServiceType(.background)
            HTTPShouldHandleCookies(false)
            AllowAccess.cellular(false)
            AllowAccess.expensiveNetwork(false)
            AllowAccess.constrainedNetwork(false)
            AllowAccess.ultraConstrainedNetwork(false)
            AllowAccess.cellular
        }
        #expect(request.timeout == .milliseconds(1500))
        #expect(request.options[CachePolicyOption.self] == .reloadIgnoringLocalCacheData)
        #expect(request.options[NetworkServiceTypeOption.self] == .background)
        #expect(request.options[ShouldHandleCookiesOption.self] == false)
        var expected = NetworkAccess()
        expected.expensiveNetwork = false
        expected.constrainedNetwork = false
        expected.ultraConstrainedNetwork = false
        #expect(request.options[NetworkAccessOption.self] == expected)
    }

    @Test func userOptionKeysReadTheirDefaultUntilSet() throws {
        enum Sampled: RequestOptionKey { static let defaultValue = false }
        struct Sample: RequestBuildable {
            func apply(to draft: inout RequestDraft) throws { draft.options[Sampled.self] = true }
        }
        #expect(try build { Accept(.json) }.options[Sampled.self] == false)
        #expect(try build { Sample() }.options[Sampled.self] == true)
    }
}

@Suite("JSON coding")
struct JSONCodingTests {
    struct Profile: Codable, Sendable, Equatable {
        var firstName: String
        var lastSeen: Date
    }

    static let profile = Profile(firstName: "Ada", lastSeen: Date(timeIntervalSince1970: 0))

    static var snakeCase: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = .sortedKeys
        return encoder
    }

    @Test func jsonBodiesUseTheDefaultEncoder() async throws {
        let request = try build { RequestBody.json(["b": 1]) }
        #expect(request.headerFields[.contentType] == "application/json")
        #expect(try await request.body?.collect() == Data(#"{"b":1}"#.utf8))
    }

    @Test func theRequestEncoderAppliesWhereverItIsDeclared() async throws {
        let request = try build {
            RequestBody.json(Self.profile)
            JSONCoding(encoder: Self.snakeCase)
        }
        #expect(
            try await request.body?.collect() == Data(#"{"first_name":"Ada","last_seen":"1970-01-01T00:00:00Z"}"#.utf8))
    }

    @Test func nestedBlocksInheritAndOverrideTheEncoder() async throws {
        let plain = JSONEncoder()
        plain.outputFormatting = .sortedKeys
        plain.dateEncodingStrategy = .secondsSince1970
        let inherited = try build {
            JSONCoding(encoder: Self.snakeCase)
            Group { RequestBody.json(Self.profile) }
        }
        #expect(
            try await inherited.body?.collect()
                == Data(#"{"first_name":"Ada","last_seen":"1970-01-01T00:00:00Z"}"#.utf8))
        let overridden = try build {
            JSONCoding(encoder: Self.snakeCase)
            WithJSONEncoder(plain) { RequestBody.json(Self.profile) }
        }
        #expect(try await overridden.body?.collect() == Data(#"{"firstName":"Ada","lastSeen":0}"#.utf8))
        let modifier = try build {
            RequestBody.json(Self.profile).useEncoder(plain)
            JSONCoding(encoder: Self.snakeCase)
        }
        #expect(try await modifier.body?.collect() == Data(#"{"firstName":"Ada","lastSeen":0}"#.utf8))
    }

    @Test func theScopedEncoderDoesNotLeakOut() async throws {
        let plain = JSONEncoder()
        let request = try build {
            WithJSONEncoder(plain) { Accept(.json) }
            RequestBody.json(["a": 1])
        }
        #expect(!request.options.contains(JSONEncoderOption.self))
        #expect(try await request.body?.collect() == Data(#"{"a":1}"#.utf8))
    }

    @Test func theDecoderIsCarriedForThePipeline() throws {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let request = try build { JSONCoding(decoder: decoder) }
        #expect(request.options[JSONDecoderOption.self] === decoder)
    }

    @Test func encodingFailuresNameTheBlock() {
        struct Unencodable: Encodable, Sendable {
            func encode(to encoder: any Encoder) throws {
                throw EncodingError.invalidValue(0, .init(codingPath: [], debugDescription: "no"))
            }
        }
        let error = #expect(throws: CourierError.self) { try build { RequestBody.json(Unencodable()) } }
        #expect(error?.code == .encodingFailed)
        #expect(error?.source == "RequestBody.json")
    }
}
