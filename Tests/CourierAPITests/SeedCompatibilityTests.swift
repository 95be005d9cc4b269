import CourierAPI
import Testing

/// Netrofit's README, declared as written there, except: custom coders that are Netrofit's own types,
/// alternatives with the same Swift signature moved to their own structs, and `Error` written
/// `any Error` (this target enables ExistentialAny).
enum NetrofitSeed {
    struct User: Codable, Sendable {}
    struct Todo: Codable, Sendable {}
    struct Message: Codable, Sendable {}
    struct Transaction: Codable, Sendable {}
    struct MetaInfo: Codable, Sendable {}
    struct Item: Codable, Sendable {}
    struct FormData: Codable, Sendable {}
    struct UploadResponse: Codable, Sendable {}

    @API
    @Headers(["token": "Bearer JWT_TOKEN"])
    struct UsersAPI {
        @GET("/user")
        func getUser(id: String) async throws -> User
        @POST("/user")
        func createUser(email: String, password: String) async throws -> (id: String, name: String)
        @GET("/users/{username}/todos")
        @ResponseKeyPath("data.list")
        func getTodos(username: String) async throws -> [Todo]
        @POST("/chat/completions")
        @Headers(["Authorization": "Bearer ..."])
        @EventStreaming
        func completions(model: String, messages: [Message], stream: Bool = true) async throws -> AsyncStream<String>
    }

    @API
    struct MethodsAPI {
        @GET("/users/list")
        func listUsers() async throws -> [User]
        @POST("/users/new")
        func createUser(_ user: User) async throws -> User
        @PUT("/users/{id}")
        func updateUser(id: Int, _ user: User) async throws -> User
        @PATCH("/users/{id}")
        func partialUpdateUser(id: Int, _ fields: [String: String]) async throws -> User
        @DELETE("/users/{id}")
        func deleteUser(id: Int) async throws
        @OPTIONS("/meta")
        func options() async throws -> MetaInfo
        @HEAD("/resource/{id}")
        func checkResource(id: Int) async throws -> HTTPHeaders
        @GET("/group/{id}/users")
        func groupList(id: Int) async throws -> [User]
        @GET("/group/{gid}/users")
        func groupList(@Path("gid") gid: Int) async throws -> [User]
        @GET("/group/{gid}/users")
        func groupList(@Path("gid") groupId: Int) async throws -> [User]
        @GET("/transactions")
        func getTransactions(merchant: String) async throws -> [Transaction]
        @GET("/group/{id}/users")
        func groupList(id: Int, sort: String) async throws -> [User]
        @GET("/search")
        func searchUsers(filters: [String: String]) async throws -> [User]
        @GET("/search")
        func searchUsers(keyword: String) async throws -> [User]
        @GET("/search")
        func searchUsers(q keyword: String) async throws -> [User]
        @POST("/items")
        func addItem(item: Item, @Query("notify") notify: Bool) async throws -> Item
        @POST("/users/new")
        func createUser(user: User) async throws -> User
        @POST("/users/new")
        func createUser(name: String, id: String) async throws -> User
        @JSON
        @POST("/users/new")
        func createUser(id: String, name: String) async throws -> User
        @JSON(encoder: JSONEncoder(), decoder: JSONDecoder())
        @POST("/data")
        func createData(user: User) async throws -> User
        @FormUrlEncoded
        @POST("/user/edit")
        func updateUser(firstName: String, lastName: String) async throws -> User
        @FormUrlEncoded(encoder: URLFormEncoder(), decoder: JSONDecoder())
        @POST("/form")
        func submitForm(data: FormData) async throws
        @Multipart
        @PUT("/user/photo")
        func updateUser(
            @Part(name: "photo", filename: "avatar.jpg", mimeType: "image/jpeg") photo: Data,
            @Part(name: "desc") description: String
        ) async throws -> User
        @Multipart(decoder: JSONDecoder())
        @POST("/upload")
        func uploadFile(file: URL, meta: [String: String]) async throws -> UploadResponse
        @Headers([
            "Cache-Control": "max-age=640000",
            "Accept": "application/vnd.github.v3.full+json",
        ])
        @GET("/users/{username}")
        func getUser(username: String) async throws -> User
        @GET("/user")
        func getUser(@Header("Authorization") token: String) async throws -> User
        @GET("/user")
        func getUser(@HeaderMap headers: [String: String]) async throws -> User
        @GET("/user")
        func getUser(id: Int) async throws -> (id: String, name: String)
        @GET("/users")
        func getUserList() async throws -> (list: [(id: String, name: String)], count: Int)
        @EventStreaming
        @GET("/events/stream")
        func listenEvents(roomID: String) async throws -> AsyncStream<String>
        @EventStreaming
        @GET("/events/stream")
        func listenEventsThrowing(roomID: String) async throws -> AsyncThrowingStream<String, any Error>
    }

    /// The README's alternatives to declarations above, which share their Swift signatures.
    @API
    struct AlternativesAPI {
        @GET("/group/{gid}/users")
        func groupList(@Path(encoded: true) gid: Int) async throws -> [User]
        @GET("/group/{gid}/users")
        func groupList(@Path("gid", encoded: true) groupId: Int) async throws -> [User]
        @GET("/search")
        func searchUsers(@Query(encoded: true) keyword: String) async throws -> [User]
        @POST("/items")
        func addItem(@Body item: Item, @Query("notify") notify: Bool) async throws -> Item
        @POST("/users/new")
        func createUser(@Field("new_name") name: String, id: String) async throws -> User
        @FormUrlEncoded
        @POST("/user/edit")
        func updateUser(@Field("first") firstName: String, @Field("last") lastName: String) async throws -> User
        @GET("/users")
        @ResponseKeyPath("data.list")
        func listUsers() async throws -> [User]
    }

    @API
    struct QueryAlternativeAPI {
        @GET("/search")
        func searchUsers(@Query("q") keyword: String) async throws -> [User]
    }

    @API
    struct MoreAlternativesAPI {
        @POST("/search")
        func searchUsers(@Query("q", encoded: true) keyword: String) async throws -> [User]
    }
}

// Papyrus's types, at file scope: the plain-value overloads `@API` adds to a protocol are an
// extension, which a macro writes at file scope whatever the protocol's nesting.
struct Todo: Codable, Sendable {
    let name: String
    let isDone: Bool
    let tags: [String]
}

struct Repository: Codable, Sendable {
    let name: String
}

struct Transaction: Codable, Sendable {}

/// Papyrus's README, declared as written there, except: protocols nested in a namespace, `Part` written
/// `Part<Data>`/`Part<URL>`, a valid bearer token, and `Error` written `any Error`.
enum PapyrusSeed {
    struct User: Codable, Sendable {}
    struct Post: Codable, Sendable {}

    @API
    @Authorization(.bearer("my-auth-token"))
    protocol Users {
        @GET("/user")
        func getUser() async throws -> User

        @POST("/user")
        func createUser(email: String, password: String) async throws -> User

        @GET("/users/:username/todos")
        func getTodos(username: String) async throws -> [Todo]
    }

    @API
    @Headers(["X-Client-Version": "1.2.3"])
    @Authorization(.basic(username: "joshuawright11", password: "P@ssw0rd"))
    @KeyMapping(.snakeCase)
    protocol Requests {
        @DELETE("/transfers/:id")
        func deleteTransfer(id: Int) async throws
        @GET("/users/:username/repos/:id")
        func getRepository(username: Path<String>, id: Path<Int>) async throws -> [Repository]
        @GET("/transactions")
        func getTransactions(merchant: Query<String>) async throws -> [Transaction]
        @GET("/transactions?merchant=Apple")
        func getAppleTransactions() async throws -> [Transaction]
        @Headers(["Cache-Control": "max-age=86400"])
        @GET("/user")
        func getUser() async throws -> User
        @PATCH("/user/:id")
        func updateUser(id: Int, name: String) async throws
        @GET("/accounts")
        func getRepository(customHeader: Header<String>) async throws
        @POST("/todo")
        func createTodo(todo: Body<Todo>) async throws
        @POST("/todo")
        func createTodo(name: Field<String>, isDone: Field<Bool>, tags: Field<[String]>) async throws
        @URLForm
        @POST("/todo")
        func createTodo(name: String, isDone: Bool, tags: [String]) async throws
        @Multipart
        @POST("/attachments")
        func uploadAttachments(file1: Part<Data>, file2: Part<URL>) async throws
        @GET("/bytes")
        func getBytes() async throws -> Data
        @GET("/bytes")
        func getOptionalBytes() async throws -> Data?
        @DELETE("/logout")
        func logout() async throws
        @GET("/user")
        func getRawUser() async throws -> Response
        @GET("/user")
        func getUserAndResponse() async throws -> (User, Response)
        @GET("/posts/:postId")
        func getPost(id postId: Int) async throws -> Post
        @GET("/user")
        func getUser(callback: @escaping (Result<User, any Error>) -> Void)
        @POST("/user")
        func createUser(email: String, password: String, completion: @escaping (Result<Void, any Error>) -> Void)
        @GET("/response")
        func getResponse(completion: @escaping (Response) -> Void)
    }

    @API
    @Mock
    protocol GitHub {
        @GET("/users/:username/repos")
        func getRepositories(username: String) async throws -> [Repository]
    }
}

@Suite("Seed README code")
struct SeedCompatibilityTests {
    @Test func netrofitDeclarationsBuildTheirRequests() throws {
        let api = NetrofitSeed.MethodsAPI(Provider(baseURL: "https://www.example.com"))
        #expect(try api.searchUsersRequest(q: "a b").url.absoluteString == "https://www.example.com/search?q=a%20b")
        #expect(try api.groupListRequest(gid: 7).url.path == "/group/7/users")
        #expect(try api.updateUserRequest(id: 3, NetrofitSeed.User()).method == .put)
    }

    @Test func papyrusDeclarationsBuildTheirRequests() throws {
        let provider = Provider(baseURL: "https://api.example.com/")
        let users: any PapyrusSeed.Users = PapyrusSeed.UsersAPI(provider: provider)
        _ = users
        let requests = PapyrusSeed.RequestsAPI(provider: provider)
        let repository = try requests.getRepositoryRequest(username: "joshuawright11", id: 42)
        #expect(repository.url.absoluteString == "https://api.example.com/users/joshuawright11/repos/42")
        #expect(repository.headerFields[.authorization] == "Basic am9zaHVhd3JpZ2h0MTE6UEBzc3cwcmQ=")
        #expect(try requests.getTransactionsRequest(merchant: "Apple").url.query == "merchant=Apple")
        #expect(try requests.getPostRequest(id: 5).url.path == "/posts/5")
    }
}
