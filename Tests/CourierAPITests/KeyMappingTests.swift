import CourierAPI
import CourierTestServer
import Foundation
import Testing

struct Profile: Codable, Sendable, Equatable {
    let firstName: String
    let userID: Int
}

struct CreatedUser: Decodable, Sendable, Equatable {
    let id: String
    let createdAt: String
}

@API
@KeyMapping(.snakeCase)
protocol Profiles {
    @GET("/anything/profiles")
    func search(pageSize: Int, sortOrder: String) async throws -> Echo

    @POST("/anything/profiles")
    func create(firstName: String, lastName: String) async throws -> Echo

    @PUT("/anything/profiles/:id")
    func replace(id: Int, _ profile: Profile) async throws -> Echo

    @URLForm
    @POST("/anything/form")
    func form(firstName: String) async throws -> Echo

    @GET("/user")
    func user() async throws -> CreatedUser
}

@API
@KeyMapping(.custom(to: { $0.uppercased() }, from: { $0.lowercased() }))
protocol Shouting {
    @GET("/anything/shout")
    func shout(pageSize: Int) async throws -> Echo

    @POST("/anything/shout")
    func post(firstName: String) async throws -> Echo

    @GET("/user")
    func user() async throws -> User
}

@Suite("@KeyMapping")
struct KeyMappingTests {
    @Test func queryKeysAreSnakeCased() async throws {
        try await withProvider { provider, _ in
            let echo = try await ProfilesAPI(provider: provider).search(pageSize: 10, sortOrder: "asc")
            #expect(echo.query == "page_size=10&sort_order=asc")
        }
    }

    @Test func fieldsAndBodiesAreSnakeCased() async throws {
        try await withProvider { provider, _ in
            let api = ProfilesAPI(provider: provider)
            let created = try await api.create(firstName: "Ada", lastName: "L")
            let replaced = try await api.replace(id: 1, Profile(firstName: "Ada", userID: 7))
            let form = try await api.form(firstName: "Ada")
            #expect(created.text == #"{"first_name":"Ada","last_name":"L"}"#)
            #expect(replaced.text == #"{"first_name":"Ada","user_id":7}"#)
            #expect(form.text == "first_name=Ada")
        }
    }

    @Test func responsesAreDecodedFromSnakeCase() async throws {
        try await withProvider { provider, _ in
            let user = try await ProfilesAPI(provider: provider).user()
            #expect(user == CreatedUser(id: "u1", createdAt: "2026"))
        }
    }

    @Test func customMappingsEncodeAndDecodeKeys() async throws {
        try await withProvider { provider, _ in
            let api = ShoutingAPI(provider: provider)
            let query = try await api.shout(pageSize: 3)
            let body = try await api.post(firstName: "Ada")
            let user = try await api.user()
            #expect(query.query == "PAGESIZE=3")
            #expect(body.text == #"{"FIRSTNAME":"Ada"}"#)
            #expect(user == User(id: "u1", name: "Ada"))
        }
    }
}
