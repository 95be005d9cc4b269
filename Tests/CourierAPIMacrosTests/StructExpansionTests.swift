import MacroTesting
import Testing

@Suite("Expansion of @API structs", .macros(apiMacros))
struct StructExpansionTests {
    @Test func apiStructGetsAProviderAndInitialisers() {
        assertMacro {
            """
            @API
            public struct UsersAPI {
            }
            """
        } expansion: {
            """
            public struct UsersAPI {

                /// Where requests go and the client they are sent with.
                public let provider: Provider

                /// An API on `provider`.
                public init(_ provider: Provider) {
                    self.provider = provider
                }

                /// An API on `provider`.
                public init(provider: Provider) {
                    self.provider = provider
                }
            }

            extension UsersAPI: Sendable {
            }
            """
        }
    }

    @Test func getSendsSimpleParametersAsQueryItemsKeyedByTheirLabel() {
        assertMacro {
            """
            struct UsersAPI {
                @GET("/user")
                func getUser(id: String, q keyword: String, filters: [String: String], tags: [Int], cursor: String?) async throws -> User
            }
            """
        } expansion: {
            """
            struct UsersAPI {
                func getUser(id: String, q keyword: String, filters: [String: String], tags: [Int], cursor: String?) async throws -> User {
                    let request = try getUserRequest(id: id, q: keyword, filters: filters, tags: tags, cursor: cursor)
                    return try await provider.decode(request, as: User.self)
                }

                /// The request `getUser` sends, built but not sent.
                func getUserRequest(id: String, q keyword: String, filters: [String: String], tags: [Int], cursor: String?) throws -> Request {
                    var endpoint = APIRequest(method: "GET", path: "/user")
                    endpoint.query("id", id)
                    endpoint.query("q", keyword)
                    endpoint.query("filters", filters)
                    endpoint.query("tags", tags)
                    endpoint.query("cursor", cursor)
                    return try provider.request(for: endpoint)
                }
            }
            """
        }
    }

    @Test func placeholdersInBothSpellingsTakeMatchingParameters() {
        assertMacro {
            """
            struct UsersAPI {
                @GET("/users/{username}/repos/:id")
                func repository(username: String, id postID: Int, sort: String) async throws -> Repository
                @GET("/group/{gid}/users")
                func groupList(@Path("gid", encoded: true) groupId: String) async throws -> [User]
            }
            """
        } expansion: {
            """
            struct UsersAPI {
                func repository(username: String, id postID: Int, sort: String) async throws -> Repository {
                    let request = try repositoryRequest(username: username, id: postID, sort: sort)
                    return try await provider.decode(request, as: Repository.self)
                }

                /// The request `repository` sends, built but not sent.
                func repositoryRequest(username: String, id postID: Int, sort: String) throws -> Request {
                    var endpoint = APIRequest(method: "GET", path: "/users/{username}/repos/:id")
                    endpoint.path("username", username)
                    endpoint.path("id", postID)
                    endpoint.query("sort", sort)
                    return try provider.request(for: endpoint)
                }
                func groupList(@Path("gid", encoded: true) groupId: String) async throws -> [User] {
                    let request = try groupListRequest(groupId: groupId)
                    return try await provider.decode(request, as: [User].self)
                }

                /// The request `groupList` sends, built but not sent.
                func groupListRequest(@Path("gid", encoded: true) groupId: String) throws -> Request {
                    var endpoint = APIRequest(method: "GET", path: "/group/{gid}/users")
                    endpoint.path("gid", groupId, encoded: true)
                    return try provider.request(for: endpoint)
                }
            }
            """
        }
    }

    @Test func postSendsUnlabelledParameterAsBodyAndLabelledOnesAsFields() {
        assertMacro {
            """
            struct UsersAPI {
                @PUT("/users/{id}")
                func updateUser(id: Int, _ user: User) async throws -> User
                @POST("/user")
                func createUser(@Field("new_name") name: String, password: String) async throws -> User
                @POST("/items")
                func addItem(@Body item: Item, @Query("notify") notify: Bool) async throws -> Item
            }
            """
        } expansion: {
            """
            struct UsersAPI {
                func updateUser(id: Int, _ user: User) async throws -> User {
                    let request = try updateUserRequest(id: id, user)
                    return try await provider.decode(request, as: User.self)
                }

                /// The request `updateUser` sends, built but not sent.
                func updateUserRequest(id: Int, _ user: User) throws -> Request {
                    var endpoint = APIRequest(method: "PUT", path: "/users/{id}")
                    endpoint.path("id", id)
                    endpoint.body(user)
                    return try provider.request(for: endpoint)
                }
                func createUser(@Field("new_name") name: String, password: String) async throws -> User {
                    let request = try createUserRequest(name: name, password: password)
                    return try await provider.decode(request, as: User.self)
                }

                /// The request `createUser` sends, built but not sent.
                func createUserRequest(@Field("new_name") name: String, password: String) throws -> Request {
                    var endpoint = APIRequest(method: "POST", path: "/user")
                    endpoint.field("new_name", name)
                    endpoint.field("password", password)
                    return try provider.request(for: endpoint)
                }
                func addItem(@Body item: Item, @Query("notify") notify: Bool) async throws -> Item {
                    let request = try addItemRequest(item: item, notify: notify)
                    return try await provider.decode(request, as: Item.self)
                }

                /// The request `addItem` sends, built but not sent.
                func addItemRequest(@Body item: Item, @Query("notify") notify: Bool) throws -> Request {
                    var endpoint = APIRequest(method: "POST", path: "/items")
                    endpoint.body(item)
                    endpoint.query("notify", notify)
                    return try provider.request(for: endpoint)
                }
            }
            """
        }
    }

    @Test func typeAndMethodOptionsConfigureTheRequest() {
        assertMacro {
            """
            @Headers(["X-Client": "1.2.3"])
            @Authorization(.bearer("token"))
            @KeyMapping(.snakeCase)
            struct UsersAPI {
                @GET("/users")
                @Headers(["Accept": "application/json"])
                @ResponseKeyPath("data.list")
                @Timeout(5)
                @Retry(maxAttempts: 2)
                @ErrorBody(APIError.self)
                func listUsers(@Header("X-Trace") trace: String, @HeaderMap extra: [String: String]) async throws -> [User]
            }
            """
        } expansion: {
            """
            struct UsersAPI {
                func listUsers(@Header("X-Trace") trace: String, @HeaderMap extra: [String: String]) async throws -> [User] {
                    let request = try listUsersRequest(trace: trace, extra: extra)
                    return try await provider.decode(request, as: [User].self)
                }

                /// The request `listUsers` sends, built but not sent.
                func listUsersRequest(@Header("X-Trace") trace: String, @HeaderMap extra: [String: String]) throws -> Request {
                    var endpoint = APIRequest(method: "GET", path: "/users")
                    endpoint.keyMapping = .snakeCase
                    endpoint.timeout = .seconds(5)
                    endpoint.retry(maxAttempts: 2)
                    endpoint.errorBody(APIError.self)
                    endpoint.responseKeyPath = "data.list"
                    endpoint.headers(["X-Client": "1.2.3"])
                    endpoint.headers(["Accept": "application/json"])
                    endpoint.authorization(.bearer("token"))
                    endpoint.header("X-Trace", trace)
                    endpoint.headers(extra)
                    return try provider.request(for: endpoint)
                }
            }
            """
        }
    }

    @Test func encodingsAndParts() {
        assertMacro {
            """
            struct UsersAPI {
                @FormUrlEncoded
                @POST("/user/edit")
                func updateUser(firstName: String, lastName: String) async throws -> User
                @Multipart
                @PUT("/user/photo")
                func updatePhoto(@Part(name: "photo", filename: "avatar.jpg", mimeType: "image/jpeg") photo: Data, @Part(name: "desc") description: String) async throws -> User
                @JSON(encoder: .iso8601)
                @HTTP("/link", method: "LINK")
                func link(target: String) async throws
            }
            """
        } expansion: {
            """
            struct UsersAPI {
                func updateUser(firstName: String, lastName: String) async throws -> User {
                    let request = try updateUserRequest(firstName: firstName, lastName: lastName)
                    return try await provider.decode(request, as: User.self)
                }

                /// The request `updateUser` sends, built but not sent.
                func updateUserRequest(firstName: String, lastName: String) throws -> Request {
                    var endpoint = APIRequest(method: "POST", path: "/user/edit")
                    endpoint.encoding = .urlForm()
                    endpoint.field("firstName", firstName)
                    endpoint.field("lastName", lastName)
                    return try provider.request(for: endpoint)
                }
                func updatePhoto(@Part(name: "photo", filename: "avatar.jpg", mimeType: "image/jpeg") photo: Data, @Part(name: "desc") description: String) async throws -> User {
                    let request = try updatePhotoRequest(photo: photo, description: description)
                    return try await provider.decode(request, as: User.self)
                }

                /// The request `updatePhoto` sends, built but not sent.
                func updatePhotoRequest(@Part(name: "photo", filename: "avatar.jpg", mimeType: "image/jpeg") photo: Data, @Part(name: "desc") description: String) throws -> Request {
                    var endpoint = APIRequest(method: "PUT", path: "/user/photo")
                    endpoint.encoding = .multipart()
                    endpoint.part(name: "photo", filename: "avatar.jpg", mimeType: "image/jpeg", photo)
                    endpoint.part(name: "desc", description)
                    return try provider.request(for: endpoint)
                }
                func link(target: String) async throws {
                    let request = try linkRequest(target: target)
                    try await provider.send(request)
                }

                /// The request `link` sends, built but not sent.
                func linkRequest(target: String) throws -> Request {
                    var endpoint = APIRequest(method: "LINK", path: "/link")
                    endpoint.encoding = .json(encoder: .iso8601)
                    endpoint.field("target", target)
                    return try provider.request(for: endpoint)
                }
            }
            """
        }
    }

    @Test func returnKindsPickTheirDecoding() {
        assertMacro {
            """
            struct UsersAPI {
                @DELETE("/users/{id}")
                func deleteUser(id: Int) async throws
                @GET("/raw")
                func raw() async throws -> Response
                @GET("/bytes")
                func bytes() async throws -> Data?
                @HEAD("/resource")
                func check() async throws -> HTTPHeaders
                @GET("/user")
                func userAndResponse() async throws -> (User, Response)
                @GET("/user")
                func maybeUser() async throws -> User?
            }
            """
        } expansion: {
            """
            struct UsersAPI {
                func deleteUser(id: Int) async throws {
                    let request = try deleteUserRequest(id: id)
                    try await provider.send(request)
                }

                /// The request `deleteUser` sends, built but not sent.
                func deleteUserRequest(id: Int) throws -> Request {
                    var endpoint = APIRequest(method: "DELETE", path: "/users/{id}")
                    endpoint.path("id", id)
                    return try provider.request(for: endpoint)
                }
                func raw() async throws -> Response {
                    let request = try rawRequest()
                    return try await provider.response(request)
                }

                /// The request `raw` sends, built but not sent.
                func rawRequest() throws -> Request {
                    let endpoint = APIRequest(method: "GET", path: "/raw")
                    return try provider.request(for: endpoint)
                }
                func bytes() async throws -> Data? {
                    let request = try bytesRequest()
                    return try await provider.dataIfPresent(request)
                }

                /// The request `bytes` sends, built but not sent.
                func bytesRequest() throws -> Request {
                    let endpoint = APIRequest(method: "GET", path: "/bytes")
                    return try provider.request(for: endpoint)
                }
                func check() async throws -> HTTPHeaders {
                    let request = try checkRequest()
                    return try await provider.headers(request)
                }

                /// The request `check` sends, built but not sent.
                func checkRequest() throws -> Request {
                    let endpoint = APIRequest(method: "HEAD", path: "/resource")
                    return try provider.request(for: endpoint)
                }
                func userAndResponse() async throws -> (User, Response) {
                    let request = try userAndResponseRequest()
                    return try await provider.decodeWithResponse(request, as: User.self)
                }

                /// The request `userAndResponse` sends, built but not sent.
                func userAndResponseRequest() throws -> Request {
                    let endpoint = APIRequest(method: "GET", path: "/user")
                    return try provider.request(for: endpoint)
                }
                func maybeUser() async throws -> User? {
                    let request = try maybeUserRequest()
                    return try await provider.decodeIfPresent(request, as: User.self)
                }

                /// The request `maybeUser` sends, built but not sent.
                func maybeUserRequest() throws -> Request {
                    let endpoint = APIRequest(method: "GET", path: "/user")
                    return try provider.request(for: endpoint)
                }
            }
            """
        }
    }

    @Test func labelledTuplesDecodeThroughLocalStructs() {
        assertMacro {
            """
            struct UsersAPI {
                @GET("/users")
                func getUserList() async throws -> (list: [(id: String, name: String)], count: Int)
            }
            """
        } expansion: {
            """
            struct UsersAPI {
                func getUserList() async throws -> (list: [(id: String, name: String)], count: Int) {
                    let request = try getUserListRequest()
                    struct ResponseTuple1: Decodable {
                        let id: String
                        let name: String
                    }
                    struct ResponseTuple0: Decodable {
                        let list: [ResponseTuple1]
                        let count: Int
                    }
                    let value = try await provider.decode(request, as: ResponseTuple0.self)
                    return (list: value.list.map { element0 in
                            (id: element0.id, name: element0.name)
                        }, count: value.count)
                }

                /// The request `getUserList` sends, built but not sent.
                func getUserListRequest() throws -> Request {
                    let endpoint = APIRequest(method: "GET", path: "/users")
                    return try provider.request(for: endpoint)
                }
            }
            """
        }
    }

    @Test func eventStreamingReturnsStreamsOnTheCoreEvents() {
        assertMacro {
            """
            struct ChatAPI {
                @POST("/chat/completions")
                @EventStreaming
                func completions(model: String, stream: Bool = true) async throws -> AsyncThrowingStream<String, any Error>
                @EventStreaming
                @GET("/events")
                func listen(roomID: String) async throws -> AsyncStream<Message>
            }
            """
        } expansion: {
            """
            struct ChatAPI {
                func completions(model: String, stream: Bool = true) async throws -> AsyncThrowingStream<String, any Error> {
                    let request = try completionsRequest(model: model, stream: stream)
                    return provider.eventData(request)
                }

                /// The request `completions` sends, built but not sent.
                func completionsRequest(model: String, stream: Bool = true) throws -> Request {
                    var endpoint = APIRequest(method: "POST", path: "/chat/completions")
                    endpoint.field("model", model)
                    endpoint.field("stream", stream)
                    return try provider.request(for: endpoint)
                }
                func listen(roomID: String) async throws -> AsyncStream<Message> {
                    let request = try listenRequest(roomID: roomID)
                    return provider.nonThrowing(provider.decodedEvents(request, as: Message.self))
                }

                /// The request `listen` sends, built but not sent.
                func listenRequest(roomID: String) throws -> Request {
                    var endpoint = APIRequest(method: "GET", path: "/events")
                    endpoint.query("roomID", roomID)
                    return try provider.request(for: endpoint)
                }
            }
            """
        }
    }

    @Test func completionHandlersSendInATask() {
        assertMacro {
            """
            struct UsersAPI {
                @GET("/user")
                func getUser(callback: @escaping (Result<User, Error>) -> Void)
                @GET("/response")
                func getResponse(completion: @escaping (Response) -> Void) -> Task<Void, Never>
            }
            """
        } expansion: {
            """
            struct UsersAPI {
                func getUser(callback: @escaping (Result<User, Error>) -> Void) {
                    func makeRequest() throws -> Request {
                        let endpoint = APIRequest(method: "GET", path: "/user")
                        return try provider.request(for: endpoint)
                    }
                    let request: Request
                    do {
                        request = try makeRequest()
                    } catch {
                        provider.fail(error, callback)
                        return
                    }
                    provider.complete(request, callback) { provider, request in
                        return try await provider.decode(request, as: User.self)
                    }
                }
                func getResponse(completion: @escaping (Response) -> Void) -> Task<Void, Never> {
                    func makeRequest() throws -> Request {
                        let endpoint = APIRequest(method: "GET", path: "/response")
                        return try provider.request(for: endpoint)
                    }
                    let request: Request
                    do {
                        request = try makeRequest()
                    } catch {
                        provider.failResponse(error, completion)
                        return Task {
                        }
                    }
                    return provider.completeResponse(request, completion)
                }
            }
            """
        }
    }

    @Test func progressParametersAreAppliedAsCoreBlocks() {
        assertMacro {
            """
            struct FilesAPI {
                @Multipart
                @POST("/upload")
                func upload(file: URL, progress: OnUploadProgress) async throws
            }
            """
        } expansion: {
            """
            struct FilesAPI {
                func upload(file: URL, progress: OnUploadProgress) async throws {
                    let request = try uploadRequest(file: file, progress: progress)
                    try await provider.send(request)
                }

                /// The request `upload` sends, built but not sent.
                func uploadRequest(file: URL, progress: OnUploadProgress) throws -> Request {
                    var endpoint = APIRequest(method: "POST", path: "/upload")
                    endpoint.encoding = .multipart()
                    endpoint.part(name: "file", file)
                    endpoint.apply(progress)
                    return try provider.request(for: endpoint)
                }
            }
            """
        }
    }
}
