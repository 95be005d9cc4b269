public import CourierFoundation
public import Foundation
import HTTPTypes
import Testing

@testable public import Courier

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// DeclarativeNetworking's bodies from encoders: `JSON(value, encoder)`, `JSON(value) { settings }`
/// with `@JSONEncoderBuilder`, and `BodyEncodingUrlUpdating` with any `MimeTypingTopLevelEncoder`.
@Suite struct DeclarativeNetworkingJSONTests {
    let template: URLRequest

    init() throws {
        template = URLRequest(url: try #require(URL(string: "https://api.example.com")))
    }

    struct Post: Encodable {
        var title: String
        var posted: Date
        var thumbnail: Data
        var link: String
    }

    let post = Post(
        title: "Hi", posted: Date(timeIntervalSince1970: 1_700_000_000), thumbnail: Data([1, 2, 3]), link: "a/b")

    @Test func jsonEncodesWithTheEncoderGivenAndSetsTheContentType() async throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .secondsSince1970
        let request = try Request(template).updating {
            HTTPMethod.POST
            "v1/posts"
            JSON(post, encoder)
        }
        let body = Data(#"{"link":"a\/b","posted":1700000000,"thumbnail":"AQID","title":"Hi"}"#.utf8)
        #expect(request.method == .post && request.url.absoluteString == "https://api.example.com/v1/posts")
        #expect(lines(request.wireHeaderFields) == ["Content-Type: application/json", "Content-Length: \(body.count)"])
        #expect(try await request.body?.collect() == body)
    }

    @Test func aOneOffEncoderIsBuiltFromItsSettingsInAnyOrder() throws {
        let request = try template.updating {
            JSON(post) {
                JSONEncoder.OutputFormatting([.sortedKeys, .withoutEscapingSlashes])
                JSONEncoder.DateEncodingStrategy.millisecondsSince1970
                JSONEncoder.DataEncodingStrategy.base64
            }
        }
        let body = Data(#"{"link":"a/b","posted":1700000000000,"thumbnail":"AQID","title":"Hi"}"#.utf8)
        #expect(request.httpMethod == "GET" && request.url?.absoluteString == "https://api.example.com")
        #expect(
            request.allHTTPHeaderFields == ["Content-Type": "application/json", "Content-Length": String(body.count)])
        #expect(request.httpBody == body)
    }

    @Test func jsonTakesAnExistentialEncodableAsTheSeedPassesIt() async throws {
        let someEncodable: any Encodable = post
        let dictionary: any Encodable = ["b": 2, "a": 1]
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let request = try Request(template).updating {
            HTTPMethod.POST
            JSON(someEncodable) {
                JSONEncoder.OutputFormatting([.sortedKeys, .withoutEscapingSlashes])
                JSONEncoder.DateEncodingStrategy.secondsSince1970
            }
        }
        let body = Data(#"{"link":"a/b","posted":1700000000,"thumbnail":"AQID","title":"Hi"}"#.utf8)
        #expect(lines(request.wireHeaderFields) == ["Content-Type: application/json", "Content-Length: \(body.count)"])
        #expect(try await request.body?.collect() == body)
        let other = try template.updating {
            HTTPMethod.PUT
            JSON(dictionary, encoder)
        }
        #expect(other.httpMethod == "PUT" && other.httpBody == Data(#"{"a":1,"b":2}"#.utf8))
        #expect(other.allHTTPHeaderFields == ["Content-Type": "application/json", "Content-Length": "13"])
        let encoded = try template.updating { BodyEncodingUrlUpdating(dictionary, ShoutingEncoder()) }
        #expect(encoded.httpBody == Data(#"{"A":1,"B":2}"#.utf8))
    }

    @Test func aValueThatFailsToEncodeFailsTheBuildNamingItsType() {
        struct Refuses: Encodable {
            struct Refusal: Error {}
            func encode(to encoder: any Encoder) throws { throw Refusal() }
        }
        let someEncodable: any Encodable = Refuses()
        let error = #expect(throws: CourierError.self) { try template.updating { JSON(someEncodable) } }
        #expect(error?.code == .encodingFailed && error?.message.contains("Refuses") == true)
    }

    /// Data as lowercase hexadecimal, a strategy JSONEncoder does not have.
    @Sendable static func hexadecimal(_ data: Data, _ encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(data.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined())
    }

    @Test func theDataStrategyTakesEffect() throws {
        struct Blob: Encodable { var bytes = Data([0x01, 0xAB, 0xFF]) }
        @JSONEncoderBuilder var hexEncoder: JSONEncoder {
            JSONEncoder.DataEncodingStrategy.custom(Self.hexadecimal)
        }
        @JSONEncoderBuilder var deferred: JSONEncoder {
            JSONEncoder.DataEncodingStrategy.deferredToData
        }
        #expect(String(decoding: try hexEncoder.encode(Blob()), as: UTF8.self) == #"{"bytes":"01abff"}"#)
        #expect(String(decoding: try deferred.encode(Blob()), as: UTF8.self) == #"{"bytes":[1,171,255]}"#)
        #expect(String(decoding: try JSONEncoder().encode(Blob()), as: UTF8.self) == #"{"bytes":"Aav\/"}"#)
    }

    static let versionKey = CodingUserInfoKey(rawValue: "version")!

    /// Every kind of value JSONEncoder's settings act on, and one that reads the user info.
    struct Sample: Encodable {
        struct Version: Encodable {
            func encode(to encoder: any Encoder) throws {
                var container = encoder.singleValueContainer()
                try container.encode(encoder.userInfo[DeclarativeNetworkingJSONTests.versionKey] as? Int ?? 0)
            }
        }
        var firstName = "Ada"
        var ratio = -Double.infinity
        var when = Date(timeIntervalSince1970: 1_700_000_000.5)
        var bytes = Data([0x0F, 0xA0])
        var link = "a/b"
        var version = Version()
    }

    @Test func everySettingTakesEffectWithANonDefaultValue() throws {
        #expect(String(decoding: try JSONEncoder().encode(["ratio": 1.5]), as: UTF8.self) == #"{"ratio":1.5}"#)
        #expect(throws: EncodingError.self, "by default a non-conforming float fails") {
            try JSONEncoder().encode(Sample())
        }
        @JSONEncoderBuilder var encoder: JSONEncoder {
            JSONEncoder.KeyEncodingStrategy.convertToSnakeCase
            JSONEncoder.NonConformingFloatEncodingStrategy.convertToString(
                positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
            JSONEncoder.DateEncodingStrategy.millisecondsSince1970
            JSONEncoder.DataEncodingStrategy.custom(Self.hexadecimal)
            JSONEncoder.OutputFormatting([.sortedKeys, .withoutEscapingSlashes])
            [Self.versionKey: 2]
        }
        #expect(
            String(decoding: try encoder.encode(Sample()), as: UTF8.self)
                == #"{"bytes":"0fa0","first_name":"Ada","link":"a/b","ratio":"-inf","version":2,"when":1700000000500}"#)
    }

    @Test func aLaterSettingOfTheSameKindWinsAndUserInfoAccumulates() throws {
        let other = CodingUserInfoKey(rawValue: "other")!
        let pretty = true
        @JSONEncoderBuilder var encoder: JSONEncoder {
            JSONEncoder.DateEncodingStrategy.iso8601
            JSONEncoder.OutputFormatting.sortedKeys
            [Self.versionKey: 1, other: "kept"]
            if pretty {
                JSONEncoder.OutputFormatting([.prettyPrinted, .sortedKeys])
            }
            JSONEncoder.DateEncodingStrategy.secondsSince1970
            [Self.versionKey: 3]
        }
        struct Stamp: Encodable {
            var at = Date(timeIntervalSince1970: 60)
            var version = Sample.Version()
        }
        #expect(
            String(decoding: try encoder.encode(Stamp()), as: UTF8.self) == "{\n  \"at\" : 60,\n  \"version\" : 3\n}")
        #expect(encoder.userInfo[other] as? String == "kept")
    }

    struct Settings: Codable, Equatable {
        var volume = 7
        var name = "kitchen"
    }

    @Test func aPropertyListEncoderSetsTheBodyItWritesAndItsType() async throws {
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .xml
        let request = try Request(template).updating {
            HTTPMethod.PUT
            "v1/settings"
            BodyEncodingUrlUpdating(Settings(), encoder)
        }
        let sameSettings = PropertyListEncoder()
        sameSettings.outputFormat = .xml
        let expected = try sameSettings.encode(Settings())
        #expect(String(decoding: expected, as: UTF8.self).contains("<string>kitchen</string>"))
        #expect(request.method == .put && request.url.absoluteString == "https://api.example.com/v1/settings")
        #expect(
            lines(request.wireHeaderFields) == [
                "Content-Type: application/x-plist", "Content-Length: \(expected.count)",
            ])
        #expect(try await request.body?.collect() == expected)

        let binary = try template.updating {
            HTTPMethod.PUT
            BodyEncodingUrlUpdating(Settings(), PropertyListEncoder())
        }
        let binaryBytes = try PropertyListEncoder().encode(Settings())
        #expect(binaryBytes.starts(with: Data("bplist00".utf8)) && binary.httpBody == binaryBytes)
        #expect(
            binary.allHTTPHeaderFields == [
                "Content-Type": "application/x-plist", "Content-Length": String(binaryBytes.count),
            ])
    }

    /// A custom encoder: JSON with its keys shouted, as its own media type.
    struct ShoutingEncoder: MimeTypingTopLevelEncoder {
        var encodingMimeType: String { "application/vnd.shout+json" }
        func encode<Value: Encodable>(_ value: Value) throws -> Data {
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            return Data(String(decoding: try encoder.encode(value), as: UTF8.self).uppercased().utf8)
        }
    }

    @Test func aCustomEncoderSetsTheBodyItWritesAndItsType() throws {
        let shouted = try template.updating {
            HTTPMethod.POST
            "v1/shout"
            BodyEncodingUrlUpdating(Settings(), ShoutingEncoder())
        }
        #expect(shouted.httpMethod == "POST" && shouted.url?.absoluteString == "https://api.example.com/v1/shout")
        #expect(shouted.allHTTPHeaderFields == ["Content-Type": "application/vnd.shout+json", "Content-Length": "29"])
        #expect(shouted.httpBody == Data(#"{"NAME":"KITCHEN","VOLUME":7}"#.utf8))
    }
}

/// As a user's module would write it: PropertyListEncoder already has `encode(_:) -> Data`.
extension PropertyListEncoder: MimeTypingTopLevelEncoder {
    public var encodingMimeType: String { "application/x-plist" }
}
