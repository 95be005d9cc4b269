import CourierAPI
import CourierTestServer
import Foundation
import HTTPTypes
import Testing

struct User: Decodable, Sendable, Equatable {
    let id: String
    let name: String
}

struct APIError: Decodable, Error, Sendable, Equatable {
    let message: String
}

@API
struct ReturnsAPI {
    @GET("/user")
    func user() async throws -> User

    @GET("/user")
    func userAndResponse() async throws -> (User, Response)

    @GET("/user")
    func userTuple() async throws -> (id: String, name: String)

    @GET("/list")
    @ResponseKeyPath("data.list")
    func list() async throws -> [User]

    @GET("/list")
    @ResponseKeyPath("data")
    func nestedTuple() async throws -> (list: [(id: String, name: String)], count: Int)

    @GET("/empty")
    func emptyUser() async throws -> User?

    @GET("/empty")
    func emptyData() async throws -> Data?

    @GET("/empty")
    func requiredData() async throws -> Data

    @GET("/user")
    func bytes() async throws -> Data

    @GET("/empty")
    func nothing() async throws

    @HEAD("/user")
    func head() async throws -> HTTPHeaders

    @GET("/status/{code}")
    func status(code: Int) async throws -> Response

    @POST("/failure")
    @ErrorBody(APIError.self)
    func failing() async throws -> User
}

@Suite("Return kinds")
struct ReturnKindTests {
    @Test func decodableAndDecodableWithResponse() async throws {
        try await withProvider { provider, _ in
            let api = ReturnsAPI(provider)
            #expect(try await api.user() == User(id: "u1", name: "Ada"))
            let (user, response) = try await api.userAndResponse()
            #expect(user.name == "Ada")
            #expect(response.headerFields[.init("X-Request-Cost")!] == "3")
        }
    }

    @Test func labelledTuplesDecodeFromTheObjectsKeys() async throws {
        try await withProvider { provider, _ in
            let api = ReturnsAPI(provider)
            let tuple = try await api.userTuple()
            #expect(tuple.id == "u1" && tuple.name == "Ada")
            let nested = try await api.nestedTuple()
            #expect(nested.count == 2)
            #expect(nested.list.map(\.name) == ["a", "b"])
        }
    }

    @Test func responseKeyPathReachesNestedValues() async throws {
        try await withProvider { provider, _ in
            let list = try await ReturnsAPI(provider).list()
            #expect(list == [User(id: "1", name: "a"), User(id: "2", name: "b")])
        }
    }

    @Test func optionalsAreNilOnAnEmptyBodyAndDataThrows() async throws {
        try await withProvider { provider, _ in
            let api = ReturnsAPI(provider)
            #expect(try await api.emptyUser() == nil)
            #expect(try await api.emptyData() == nil)
            #expect(try await api.bytes().count > 10)
            try await api.nothing()
            let error = await #expect(throws: CourierError.self) { try await api.requiredData() }
            #expect(error?.code == .decodingFailed)
        }
    }

    @Test func headReturnsTheHeaderFields() async throws {
        try await withProvider { provider, _ in
            let headers = try await ReturnsAPI(provider).head()
            #expect(headers[.init("X-Request-Cost")!] == "3")
        }
    }

    @Test func responseIsReturnedWhateverTheStatus() async throws {
        try await withProvider { provider, _ in
            let response = try await ReturnsAPI(provider).status(code: 404)
            #expect(response.status.code == 404)
            #expect(response.statusCode == 404)
            #expect(response.error != nil)
        }
    }

    @Test func aNon2xxThrowsWithRequestResponseAndTypedErrorBody() async throws {
        try await withProvider { provider, _ in
            let error = await #expect(throws: CourierError.self) { try await ReturnsAPI(provider).failing() }
            #expect(error?.code == .unacceptableStatus)
            #expect(error?.response?.status.code == 422)
            #expect(error?.request?.method == .post)
            #expect(error?.underlying as? APIError == APIError(message: "name taken"))
        }
    }

    @Test func mockTransportAnswersDeclaredEndpoints() async throws {
        let transport = MockTransport()
        transport.enqueue(.json(#"{"id":"m","name":"Mocked"}"#))
        let api = ReturnsAPI(Provider(baseURL: "https://api.example.com", client: Client(transport: transport)))
        #expect(try await api.user() == User(id: "m", name: "Mocked"))
        #expect(transport.requests.first?.url.absoluteString == "https://api.example.com/user")
    }
}
