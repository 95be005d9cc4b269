import CourierAPI
import CourierTestServer
import Foundation
import Testing

struct NewUser: Codable, Sendable, Equatable {
    let name: String
    let age: Int
}

@API
@Headers(["X-Client": "1.2.3"])
struct EchoAPI {
    @GET("/anything/users/{username}/todos")
    func todos(username: String, page: Int, tags: [String], cursor: String?) async throws -> Echo

    @GET("/anything/search")
    func search(q keyword: String, filters: [String: String]) async throws -> Echo

    @POST("/anything/user")
    func createUser(email: String, password: String) async throws -> Echo

    @PUT("/anything/users/{id}")
    func updateUser(id: Int, _ user: NewUser) async throws -> Echo

    @POST("/anything/items")
    func addItem(@Body item: NewUser, @Query("notify") notify: Bool) async throws -> Echo

    @POST("/anything/users/new")
    @FormUrlEncoded
    func createForm(@Field("new_name") name: String, id: String) async throws -> Echo

    @GET("/anything/user")
    @Headers(["X-Client": "9", "Accept": "application/json"])
    func getUser(@Header("Authorization") token: String, @HeaderMap headers: [String: String]) async throws -> Echo

    @HTTP("/anything/link/{id}", method: "LINK")
    func link(@Path("id", encoded: true) raw: String) async throws -> Echo

    @GET("/anything/transactions?merchant=Apple")
    func transactions(limit: Int) async throws -> Echo

    @GET("/anything/files/{name}")
    func file(name: String) async throws -> Echo

    @Multipart
    @PUT("/anything/user/photo")
    func photo(@Part(name: "photo", filename: "avatar.jpg", mimeType: "image/jpeg") photo: Data,
               @Part(name: "desc") description: String) async throws -> Echo
}

@Suite("Netrofit-style @API structs")
struct NetrofitStyleTests {
    @Test func pathPlaceholdersQueriesAndArraysArriveAsDeclared() async throws {
        try await withProvider { provider, _ in
            let echo = try await EchoAPI(provider).todos(username: "john doe", page: 2, tags: ["a", "b&c"], cursor: nil)
            #expect(echo.method == "GET")
            #expect(echo.path == "/anything/users/john%20doe/todos")
            #expect(echo.query == "page=2&tags=a&tags=b%26c")
            #expect(echo.header("X-Client") == "1.2.3")
            #expect(echo.body.isEmpty)
        }
    }
}
