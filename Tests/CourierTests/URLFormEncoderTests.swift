import Courier
import CourierFoundation
import Foundation
import Testing

@Suite("URLFormEncoder")
struct URLFormEncoderTests {
    struct Flat: Encodable {
        var name = "Ada"
        var age = 36
        var score = 9.5
        var active = true
    }

    struct Address: Encodable {
        var city = "London"
        var zip = "N1"
    }

    struct Person: Encodable {
        var name = "Ada"
        var address = Address()
    }

    struct Tagged: Encodable {
        var tags = ["a", "b"]
    }

    struct Item: Encodable {
        var name: String
        var count: Int
    }

    struct Order: Encodable {
        var items = [Item(name: "x", count: 1), Item(name: "y", count: 2)]
    }

    enum Status: String, Encodable { case open, closed }

    @Test func flatObjectEncodesKeysInDeclarationOrder() throws {
        #expect(try URLFormEncoder().encodeAsString(Flat()) == "name=Ada&age=36&score=9.5&active=true")
    }

    @Test func encodeReturnsItemsWithUnencodedNamesAndValues() throws {
        let items = try URLFormEncoder().encode(Person())
        #expect(
            items == [
                URLQueryItem(name: "name", value: "Ada"),
                URLQueryItem(name: "address[city]", value: "London"),
                URLQueryItem(name: "address[zip]", value: "N1"),
            ])
    }

    @Test func nestedObjectsUseBracketedNames() throws {
        struct Outer: Encodable { var a = Middle() }
        struct Middle: Encodable { var b = Inner() }
        struct Inner: Encodable { var c = 1 }
        #expect(try URLFormEncoder().encodeAsString(Outer()) == "a%5Bb%5D%5Bc%5D=1")
        #expect(try URLFormEncoder().encode(Outer()).map(\.name) == ["a[b][c]"])
    }

    @Test func arraysRepeatTheirNameByDefault() throws {
        #expect(try URLFormEncoder().encodeAsString(Tagged()) == "tags=a&tags=b")
    }

    @Test func arraysCanUseEmptyBrackets() throws {
        let encoder = URLFormEncoder(arrayEncoding: .brackets)
        #expect(try encoder.encode(Tagged()).map(\.name) == ["tags[]", "tags[]"])
        #expect(try encoder.encodeAsString(Tagged()) == "tags%5B%5D=a&tags%5B%5D=b")
    }

    @Test func arraysCanUseIndices() throws {
        let encoder = URLFormEncoder(arrayEncoding: .indexed)
        #expect(try encoder.encode(Tagged()).map(\.name) == ["tags[0]", "tags[1]"])
        #expect(try encoder.encodeAsString(Tagged()) == "tags%5B0%5D=a&tags%5B1%5D=b")
    }

    @Test func arrayInsideAnObjectRepeatsTheBracketedName() throws {
        struct Wrapper: Encodable { var a = Tagged() }
        let items = try URLFormEncoder().encode(Wrapper())
        #expect(items == [URLQueryItem(name: "a[tags]", value: "a"), URLQueryItem(name: "a[tags]", value: "b")])
    }

    @Test func arraysOfObjectsAreAlwaysIndexedSoFieldsStayGrouped() throws {
        let expected = ["items[0][name]=x", "items[0][count]=1", "items[1][name]=y", "items[1][count]=2"]
        for arrayEncoding in [URLFormEncoder.ArrayEncoding.repeatedKey, .brackets, .indexed] {
            let items = try URLFormEncoder(arrayEncoding: arrayEncoding).encode(Order())
            #expect(items.map { "\($0.name)=\($0.value ?? "")" } == expected)
        }
    }

    @Test func arraysOfArraysIndexTheOuterLevelOnly() throws {
        struct Matrix: Encodable { var m = [[1, 2], [3]] }
        let items = try URLFormEncoder().encode(Matrix())
        #expect(items.map { "\($0.name)=\($0.value ?? "")" } == ["m[0]=1", "m[0]=2", "m[1]=3"])
    }

    @Test func emptyArraysAndObjectsProduceNoFields() throws {
        struct Empty: Encodable {}
        struct Holder: Encodable {
            var tags: [String] = []
            var empty = Empty()
            var x = 1
        }
        #expect(try URLFormEncoder().encodeAsString(Holder()) == "x=1")
        #expect(try URLFormEncoder().encodeAsString(Empty()) == "")
    }

    @Test func nilOptionalsAreOmitted() throws {
        struct Search: Encodable {
            var query: String? = "swift"
            var cursor: String? = nil
            var limit: Int? = nil
            var tags: [String?] = ["a", nil, "c"]
        }
        #expect(try URLFormEncoder().encodeAsString(Search()) == "query=swift&tags=a&tags=c")
        #expect(
            try URLFormEncoder(arrayEncoding: .indexed).encode(Search()).map(\.name) == ["query", "tags[0]", "tags[2]"])
    }

    @Test func explicitlyEncodedNilIsOmitted() throws {
        struct Explicit: Encodable {
            enum CodingKeys: String, CodingKey { case a, b }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encodeNil(forKey: .a)
                try container.encode(Optional<Int>.none, forKey: .b)
            }
        }
        #expect(try URLFormEncoder().encodeAsString(Explicit()) == "")
    }

    @Test func booleansAreWordsOrDigits() throws {
        struct Flags: Encodable {
            var on = true
            var off = false
        }
        #expect(try URLFormEncoder().encodeAsString(Flags()) == "on=true&off=false")
        #expect(try URLFormEncoder(boolEncoding: .numeric).encodeAsString(Flags()) == "on=1&off=0")
    }

    @Test func datesFollowTheDateEncoding() throws {
        struct Event: Encodable { var at = Date(timeIntervalSince1970: 1_700_000_000) }
        struct Precise: Encodable { var at = Date(timeIntervalSince1970: 1.25) }
        #expect(try URLFormEncoder().encodeAsString(Event()) == "at=2023-11-14T22%3A13%3A20Z")
        #expect(try URLFormEncoder(dateEncoding: .secondsSince1970).encodeAsString(Event()) == "at=1700000000")
        #expect(try URLFormEncoder(dateEncoding: .secondsSince1970).encodeAsString(Precise()) == "at=1.25")
        #expect(try URLFormEncoder(dateEncoding: .millisecondsSince1970).encodeAsString(Event()) == "at=1700000000000")
        #expect(try URLFormEncoder(dateEncoding: .millisecondsSince1970).encodeAsString(Precise()) == "at=1250")

        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        #expect(try URLFormEncoder(dateEncoding: .formatted(formatter)).encodeAsString(Event()) == "at=2023-11-14")
        let custom = URLFormEncoder(dateEncoding: .custom { "day-\(Int($0.timeIntervalSince1970) / 86_400)" })
        #expect(try custom.encodeAsString(Event()) == "at=day-19675")
    }

    @Test func optionalDatesAndArraysOfDatesUseTheDateEncoding() throws {
        struct Window: Encodable {
            var start: Date? = Date(timeIntervalSince1970: 0)
            var marks = [Date(timeIntervalSince1970: 60)]
        }
        let items = try URLFormEncoder().encode(Window())
        #expect(items.map(\.value) == ["1970-01-01T00:00:00Z", "1970-01-01T00:01:00Z"])
    }

    @Test func foundationValuesAreWrittenAsSingleStrings() throws {
        struct Values: Encodable {
            var data = Data([0xFB, 0xFF, 0x00])
            var url = URL(string: "https://example.com/a?b=c")!
            var price = Decimal(string: "12.50")!
            var ratio: Float = 0.1
            var big = Int64.max
            var status = Status.closed
        }
        let items = try URLFormEncoder().encode(Values())
        #expect(
            items.map(\.value) == ["+/8A", "https://example.com/a?b=c", "12.5", "0.1", "9223372036854775807", "closed"])
    }

    @Test func nonFiniteNumbersFail() throws {
        struct Bad: Encodable { var value = Double.nan }
        let error = #expect(throws: CourierError.self) { try URLFormEncoder().encode(Bad()) }
        #expect(error?.code == .encodingFailed)
    }

    @Test func reservedCharactersAndUnicodeArePercentEncoded() throws {
        struct Text: Encodable {
            var q = "a&b=c+d#e%f g"
            var emoji = "café 🚀"
            var safe = "A-z_0.9*~"
        }
        #expect(
            try URLFormEncoder().encodeAsString(Text())
                == "q=a%26b%3Dc%2Bd%23e%25f+g&emoji=caf%C3%A9+%F0%9F%9A%80&safe=A-z_0.9*%7E")
    }

    @Test func snakeCaseConvertsKeysButNotValues() throws {
        struct Profile: Encodable {
            var firstName = "Ada"
            var userID = 7
            var myURLValue = "camelCase"
            var homeAddress = Address()
            var _private = 1
            var already_snake = 2
        }
        let items = try URLFormEncoder(keyEncoding: .convertToSnakeCase).encode(Profile())
        #expect(
            items.map(\.name) == [
                "first_name", "user_id", "my_url_value", "home_address[city]", "home_address[zip]", "_private",
                "already_snake",
            ])
        #expect(items[2].value == "camelCase")
    }

    @Test func customKeyEncodingRenamesEveryKey() throws {
        let encoder = URLFormEncoder(keyEncoding: .custom { $0.uppercased() })
        #expect(try encoder.encodeAsString(Person()) == "NAME=Ada&ADDRESS%5BCITY%5D=London&ADDRESS%5BZIP%5D=N1")
    }

    @Test func stringKeyedDictionariesAreObjects() throws {
        #expect(try URLFormEncoder().encodeAsString(["only": "one"]) == "only=one")
    }

    @Test func topLevelValuesThatAreNotObjectsFail() throws {
        for value in [
            AnyEncodable(["a", "b"]), AnyEncodable("text"), AnyEncodable(42), AnyEncodable(Optional<Flat>.none),
        ] {
            let error = #expect(throws: CourierError.self) { try URLFormEncoder().encode(value) }
            #expect(error?.code == .encodingFailed)
            #expect(error?.source == "URLFormEncoder")
        }
    }

    @Test func errorsThrownByMembersAreWrapped() throws {
        struct Failing: Encodable {
            struct Boom: Error {}
            func encode(to encoder: any Encoder) throws { throw Boom() }
        }
        struct Holder: Encodable { var inner = Failing() }
        let error = #expect(throws: CourierError.self) { try URLFormEncoder().encodeAsString(Holder()) }
        #expect(error?.code == .encodingFailed)
        #expect(error?.underlying is Failing.Boom)
    }
}

/// Erases a value so one loop can try several top-level shapes.
private struct AnyEncodable: Encodable {
    let encodeValue: (any Encoder) throws -> Void
    init(_ value: some Encodable) { encodeValue = value.encode(to:) }
    func encode(to encoder: any Encoder) throws { try encodeValue(encoder) }
}
