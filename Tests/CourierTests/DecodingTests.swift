import Courier
import Foundation
import HTTPTypes
import Testing

@Suite("Decoding")
struct DecodingTests {
    struct User: Codable, Equatable, Sendable {
        var id: Int
        var firstName: String
    }

    struct APIProblem: Decodable, Error, Sendable {
        var title: String
    }

    let request = try! build("https://api.example.com/users/1") { Method.GET }

    func client(_ responses: MockResponse...) -> Client {
        let mock = MockTransport()
        for response in responses { mock.enqueue(response) }
        return Client(transport: mock)
    }

    @Test func decodesJSONWithTheDefaultDecoder() async throws {
        let user = try await client(.json(#"{"id": 1, "firstName": "Ada"}"#)).send(request, decoding: User.self)
        #expect(user == User(id: 1, firstName: "Ada"))
    }

    @Test func usesTheRequestsDecoder() async throws {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let request = try self.request.updating { JSONCoding(decoder: decoder) }
        let user = try await client(.json(#"{"id": 1, "first_name": "Ada"}"#)).send(request, decoding: User.self)
        #expect(user.firstName == "Ada")
    }

    @Test func decodesAtAKeyPath() async throws {
        let users = try await client(.json(#"{"data": {"list": [{"id": 1, "firstName": "Ada"}], "total": 1}}"#))
            .send(request, decoding: [User].self, at: "data.list")
        #expect(users == [User(id: 1, firstName: "Ada")])
    }

    @Test func aMissingKeyPathNamesWhereDecodingFailed() async throws {
        let error = await #expect(throws: CourierError.self) {
            try await client(.json(#"{"data": {}}"#)).send(request, decoding: [User].self, at: "data.list")
        }
        #expect(error?.code == .decodingFailed)
        #expect(error?.message.contains("data.list") == true)
        #expect(error?.response?.status == .ok)
    }

    @Test func aMalformedBodyIsDecodingFailedWithTheCodingPath() async throws {
        let error = await #expect(throws: CourierError.self) {
            try await client(.json(#"{"id": "one", "firstName": "Ada"}"#)).send(request, decoding: User.self)
        }
        #expect(error?.code == .decodingFailed)
        #expect(error?.message.contains("id") == true)
        #expect(error?.underlying is DecodingError)
    }

    @Test func returnsRawDataTextAndTheResponse() async throws {
        #expect(try await client(.text("raw")).send(request, decoding: Data.self) == Data("raw".utf8))
        #expect(try await client(.text("héllo")).send(request, decoding: String.self) == "héllo")
        let (user, response) = try await client(.json(#"{"id": 2, "firstName": "Bo"}"#)).send(
            request, decoding: (User, Response).self)
        #expect(user.id == 2)
        #expect(response.headerFields[.contentType] == "application/json")
        let raw = try await client(.status(.notFound)).send(request, decoding: Response.self)
        #expect(raw.status == .notFound)
    }

    @Test func voidAcceptsAnEmptySuccessAndRefusesAFailure() async throws {
        let mock = MockTransport()
        mock.enqueue(.status(.noContent))
        mock.enqueue(.status(.notFound))
        let client = Client(transport: mock)
        let result: Void = try await client.send(request, decoding: Void.self)
        #expect(result == ())
        #expect(mock.requests.map(\.url) == [request.url])
        let error = await #expect(throws: CourierError.self) { try await client.send(request, decoding: Void.self) }
        #expect(error?.code == .unacceptableStatus)
        #expect(error?.response?.status == .notFound)
    }

    @Test func aNonSuccessStatusIsUnacceptableWithTheResponse() async throws {
        let error = await #expect(throws: CourierError.self) {
            try await client(.json(#"{"title": "nope"}"#, status: .forbidden)).send(request, decoding: User.self)
        }
        #expect(error?.code == .unacceptableStatus)
        #expect(error?.response?.status == .forbidden)
        #expect(error?.response?.text == #"{"title": "nope"}"#)
    }

    @Test func aTypedErrorBodyIsDecodedOnFailure() async throws {
        let error = await #expect(throws: CourierError.self) {
            try await client(.json(#"{"title": "Out of credit"}"#, status: .conflict))
                .send(request, decoding: User.self, errorBody: APIProblem.self)
        }
        #expect(error?.code == .unacceptableStatus)
        #expect((error?.underlying as? APIProblem)?.title == "Out of credit")
        let user = try await client(.json(#"{"id": 3, "firstName": "Cy"}"#)).send(
            request, decoding: User.self, errorBody: APIProblem.self)
        #expect(user.id == 3)
    }
}
