import MacroTesting
import Testing

@Suite("Diagnostics of the API macros", .macros(apiMacros))
struct DiagnosticTests {
    @Test func anEndpointMustBeAsyncThrows() {
        assertMacro {
            """
            struct UsersAPI {
                @GET("/user")
                func getUser() -> User
            }
            """
        } diagnostics: {
            """
            struct UsersAPI {
                @GET("/user")
                func getUser() -> User
                     ┬──────
                     ╰─ 🛑 endpoint 'getUser' must be 'async throws': it sends a request, which suspends and can fail
                        ✏️ make 'getUser' async throws
            }
            """
        } fixes: {
            """
            struct UsersAPI {
                @GET("/user")
                func getUser() async throws -> User
            }
            """
        } expansion: {
            """
            struct UsersAPI {
                func getUser() async throws -> User {
                    let request = try getUserRequest()
                    return try await provider.decode(request, as: User.self)
                }

                /// The request `getUser` sends, built but not sent.
                func getUserRequest() throws -> Request {
                    let endpoint = APIRequest(method: "GET", path: "/user")
                    return try provider.request(for: endpoint)
                }
            }
            """
        }
    }

    @Test func aFunctionWithoutAMethodAttributeIsNamed() {
        assertMacro {
            """
            @API
            struct UsersAPI {
                func getUser() async throws -> User
            }
            """
        } diagnostics: {
            """
            @API
            struct UsersAPI {
                func getUser() async throws -> User
                     ┬──────
                     ╰─ 🛑 'getUser' has no method attribute; an endpoint needs one such as @GET("/path")
                        ✏️ add @GET("/")
            }
            """
        } fixes: {
            """
            @API
            struct UsersAPI {
                @GET("/")
                func getUser() async throws -> User
            }
            """
        } expansion: {
            """
            struct UsersAPI {
                func getUser() async throws -> User {
                    let request = try getUserRequest()
                    return try await provider.decode(request, as: User.self)
                }

                /// The request `getUser` sends, built but not sent.
                func getUserRequest() throws -> Request {
                    let endpoint = APIRequest(method: "GET", path: "/")
                    return try provider.request(for: endpoint)
                }

                /// Where requests go and the client they are sent with.
                let provider: Provider

                /// An API on `provider`.
                init(_ provider: Provider) {
                    self.provider = provider
                }

                /// An API on `provider`.
                init(provider: Provider) {
                    self.provider = provider
                }
            }

            extension UsersAPI: Sendable {
            }
            """
        }
    }

    @Test func twoMethodAttributesAreRefused() {
        assertMacro {
            """
            struct UsersAPI {
                @GET("/user")
                @POST("/user")
                func getUser() async throws -> User
            }
            """
        } diagnostics: {
            """
            struct UsersAPI {
                @GET("/user")
                @POST("/user")
                ┬─────────────
                ╰─ 🛑 'getUser' has two method attributes, @GET and @POST; an endpoint has exactly one
                   ✏️ remove @POST
                func getUser() async throws -> User
            }
            """
        } fixes: {
            """
            struct UsersAPI {
                @GET("/user")
                func getUser() async throws -> User
            }
            """
        } expansion: {
            """
            struct UsersAPI {
                func getUser() async throws -> User {
                    let request = try getUserRequest()
                    return try await provider.decode(request, as: User.self)
                }

                /// The request `getUser` sends, built but not sent.
                func getUserRequest() throws -> Request {
                    let endpoint = APIRequest(method: "GET", path: "/user")
                    return try provider.request(for: endpoint)
                }
            }
            """
        }
    }

    @Test func aPlaceholderWithoutAParameterIsRefused() {
        assertMacro {
            """
            struct UsersAPI {
                @GET("/users/{id}")
                func getUser(name: String) async throws -> User
            }
            """
        } diagnostics: {
            """
            struct UsersAPI {
                @GET("/users/{id}")
                ┬──────────────────
                ╰─ 🛑 path placeholder 'id' matches no parameter of 'getUser'
                   ✏️ add a parameter 'id: String'
                func getUser(name: String) async throws -> User
            }
            """
        } fixes: {
            """
            struct UsersAPI {
                @GET("/users/{id}")
                func getUser(name: String, id: String) async throws -> User
            }
            """
        } expansion: {
            """
            struct UsersAPI {
                func getUser(name: String, id: String) async throws -> User {
                    let request = try getUserRequest(name: name, id: id)
                    return try await provider.decode(request, as: User.self)
                }

                /// The request `getUser` sends, built but not sent.
                func getUserRequest(name: String, id: String) throws -> Request {
                    var endpoint = APIRequest(method: "GET", path: "/users/{id}")
                    endpoint.query("name", name)
                    endpoint.path("id", id)
                    return try provider.request(for: endpoint)
                }
            }
            """
        }
    }

    @Test func aComplexGetParameterMatchesNoRole() {
        assertMacro {
            """
            struct UsersAPI {
                @GET("/users")
                func search(filter: Filter) async throws -> [User]
            }
            """
        } diagnostics: {
            """
            struct UsersAPI {
                @GET("/users")
                func search(filter: Filter) async throws -> [User]
                            ┬─────────────
                            ╰─ 🛑 parameter 'filter' of 'search' matches no role: a GET endpoint sends only simple values (strings, numbers, Bool, arrays and [String: String]) as query items; mark it @Query, @Body, @Field or @Header
                               ✏️ send 'filter' as @Query
                               ✏️ send 'filter' as @Body
            }
            """
        } fixes: {
            """
            struct UsersAPI {
                @GET("/users")
                func search(@Query filter: Filter) async throws -> [User]
            }
            """
        } expansion: {
            """
            struct UsersAPI {
                func search(@Query filter: Filter) async throws -> [User] {
                    let request = try searchRequest(filter: filter)
                    return try await provider.decode(request, as: [User].self)
                }

                /// The request `search` sends, built but not sent.
                func searchRequest(@Query filter: Filter) throws -> Request {
                    var endpoint = APIRequest(method: "GET", path: "/users")
                    endpoint.query("filter", filter)
                    return try provider.request(for: endpoint)
                }
            }
            """
        }
    }

    @Test func aClosureThatIsNotLastMatchesNoRole() {
        assertMacro {
            """
            struct UsersAPI {
                @GET("/users")
                func search(transform: (String) -> String, page: Int) async throws -> [User]
            }
            """
        } diagnostics: {
            """
            struct UsersAPI {
                @GET("/users")
                func search(transform: (String) -> String, page: Int) async throws -> [User]
                            ┬─────────────────────────────
                            ╰─ 🛑 parameter 'transform' matches no role: a closure is only allowed as the last parameter, as a completion handler
            }
            """
        }
    }

    @Test func twoBodiesAreRefused() {
        assertMacro {
            """
            struct UsersAPI {
                @POST("/users")
                func create(_ user: User, _ profile: Profile) async throws -> User
            }
            """
        } diagnostics: {
            """
            struct UsersAPI {
                @POST("/users")
                func create(_ user: User, _ profile: Profile) async throws -> User
                                          ┬─────────────────
                                          ╰─ 🛑 'create' has two bodies, 'user' and 'profile'; an endpoint sends at most one
                                             ✏️ send 'profile' as a field
            }
            """
        } fixes: {
            """
            struct UsersAPI {
                @POST("/users")
                func create(_ user: User, profile: Profile) async throws -> User
            }
            """
        }
    }

    @Test func aBodyBesideFieldsIsRefused() {
        assertMacro {
            """
            struct UsersAPI {
                @POST("/users")
                func create(@Body user: User, notify: Bool) async throws -> User
            }
            """
        } diagnostics: {
            """
            struct UsersAPI {
                @POST("/users")
                func create(@Body user: User, notify: Bool) async throws -> User
                            ┬────────────────
                            ╰─ 🛑 'create' mixes a body ('user') with fields ('notify'); send them inside one body, or make them query items
                               ✏️ send the fields as query items
            }
            """
        } fixes: {
            """
            struct UsersAPI {
                @POST("/users")
                func create(@Body user: User, @Query notify: Bool) async throws -> User
            }
            """
        } expansion: {
            """
            struct UsersAPI {
                func create(@Body user: User, @Query notify: Bool) async throws -> User {
                    let request = try createRequest(user: user, notify: notify)
                    return try await provider.decode(request, as: User.self)
                }

                /// The request `create` sends, built but not sent.
                func createRequest(@Body user: User, @Query notify: Bool) throws -> Request {
                    var endpoint = APIRequest(method: "POST", path: "/users")
                    endpoint.body(user)
                    endpoint.query("notify", notify)
                    return try provider.request(for: endpoint)
                }
            }
            """
        }
    }

    @Test func aPartNeedsAMultipartEndpoint() {
        assertMacro {
            """
            struct UsersAPI {
                @POST("/photo")
                func upload(@Part(name: "photo") photo: Data) async throws
            }
            """
        } diagnostics: {
            """
            struct UsersAPI {
                @POST("/photo")
                func upload(@Part(name: "photo") photo: Data) async throws
                            ┬───────────────────
                            ╰─ 🛑 @Part on 'photo' needs a multipart endpoint; add @Multipart to the function or its type
                               ✏️ add @Multipart
            }
            """
        } fixes: {
            """
            struct UsersAPI {
                @Multipart
                @POST("/photo")
                func upload(@Part(name: "photo") photo: Data) async throws
            }
            """
        } expansion: {
            """
            struct UsersAPI {
                func upload(@Part(name: "photo") photo: Data) async throws {
                    let request = try uploadRequest(photo: photo)
                    try await provider.send(request)
                }

                /// The request `upload` sends, built but not sent.
                func uploadRequest(@Part(name: "photo") photo: Data) throws -> Request {
                    var endpoint = APIRequest(method: "POST", path: "/photo")
                    endpoint.encoding = .multipart()
                    endpoint.part(name: "photo", photo)
                    return try provider.request(for: endpoint)
                }
            }
            """
        }
    }

    @Test func eventStreamingNeedsAStreamReturnType() {
        assertMacro {
            """
            struct ChatAPI {
                @EventStreaming
                @GET("/events")
                func listen() async throws -> [String]
            }
            """
        } diagnostics: {
            """
            struct ChatAPI {
                @EventStreaming
                @GET("/events")
                func listen() async throws -> [String]
                                              ┬───────
                                              ╰─ 🛑 @EventStreaming endpoints return AsyncStream<T> or AsyncThrowingStream<T, any Error> of String, ServerSentEvent or a Decodable type, not '[String]'
                                                 ✏️ return AsyncThrowingStream<String, any Error>
            }
            """
        } fixes: {
            """
            struct ChatAPI {
                @EventStreaming
                @GET("/events")
                func listen() async throws -> AsyncThrowingStream<String, any Error>
            }
            """
        } expansion: {
            """
            struct ChatAPI {
                func listen() async throws -> AsyncThrowingStream<String, any Error> {
                    let request = try listenRequest()
                    return provider.eventData(request)
                }

                /// The request `listen` sends, built but not sent.
                func listenRequest() throws -> Request {
                    let endpoint = APIRequest(method: "GET", path: "/events")
                    return try provider.request(for: endpoint)
                }
            }
            """
        }
    }

    @Test func aCompletionHandlerOfTheWrongShapeIsRefused() {
        assertMacro {
            """
            struct UsersAPI {
                @GET("/user")
                func getUser(completion: @escaping (User?, Error?) -> Void)
            }
            """
        } diagnostics: {
            """
            struct UsersAPI {
                @GET("/user")
                func getUser(completion: @escaping (User?, Error?) -> Void)
                                         ┬────────────────────────────────
                                         ╰─ 🛑 completion handler 'completion' must have the type '@escaping (Result<T, any Error>) -> Void' or '@escaping (Response) -> Void'
                                            ✏️ use '@escaping (Result<Void, any Error>) -> Void'
            }
            """
        } fixes: {
            """
            struct UsersAPI {
                @GET("/user")
                func getUser(completion: @escaping (Result<Void, any Error>) -> Void)
            }
            """
        } expansion: {
            """
            struct UsersAPI {
                func getUser(completion: @escaping (Result<Void, any Error>) -> Void) {
                    func makeRequest() throws -> Request {
                        let endpoint = APIRequest(method: "GET", path: "/user")
                        return try provider.request(for: endpoint)
                    }
                    let request: Request
                    do {
                        request = try makeRequest()
                    } catch {
                        provider.fail(error, completion)
                        return
                    }
                    provider.complete(request, completion) { provider, request in
                        try await provider.send(request)
                    }
                }
            }
            """
        }
    }

    @Test func aCompletionHandlerEndpointReturnsNothing() {
        assertMacro {
            """
            struct UsersAPI {
                @GET("/user")
                func getUser(completion: @escaping (Result<User, Error>) -> Void) async throws -> User
            }
            """
        } diagnostics: {
            """
            struct UsersAPI {
                @GET("/user")
                func getUser(completion: @escaping (Result<User, Error>) -> Void) async throws -> User
                     ┬──────
                     ╰─ 🛑 'getUser' has a completion handler, so it must be neither async nor throwing and return nothing
                        ✏️ remove 'async', 'throws' and the return type
            }
            """
        } fixes: {
            """
            struct UsersAPI {
                @GET("/user")
                func getUser(completion: @escaping (Result<User, Error>) -> Void)
            }
            """
        } expansion: {
            """
            struct UsersAPI {
                func getUser(completion: @escaping (Result<User, Error>) -> Void) {
                    func makeRequest() throws -> Request {
                        let endpoint = APIRequest(method: "GET", path: "/user")
                        return try provider.request(for: endpoint)
                    }
                    let request: Request
                    do {
                        request = try makeRequest()
                    } catch {
                        provider.fail(error, completion)
                        return
                    }
                    provider.complete(request, completion) { provider, request in
                        return try await provider.decode(request, as: User.self)
                    }
                }
            }
            """
        }
    }

    @Test func aPathMustBeALiteral() {
        assertMacro {
            """
            struct UsersAPI {
                @GET(userPath)
                func getUser() async throws -> User
            }
            """
        } diagnostics: {
            """
            struct UsersAPI {
                @GET(userPath)
                     ┬───────
                     ╰─ 🛑 the path of @GET must be a string literal, so placeholders can be checked when compiling
                func getUser() async throws -> User
            }
            """
        }
    }

    @Test func unlabelledTuplesAreRefused() {
        assertMacro {
            """
            struct UsersAPI {
                @GET("/user")
                func getUser() async throws -> (String, Int)
            }
            """
        } diagnostics: {
            """
            struct UsersAPI {
                @GET("/user")
                func getUser() async throws -> (String, Int)
                                               ┬────────────
                                               ╰─ 🛑 the tuple return type '(String, Int)' is not supported: label every element to decode it from the response object's keys, or return (T, Response)
            }
            """
        }
    }

    @Test func apiOnAClassIsRefused() {
        assertMacro {
            """
            @API
            class UsersAPI {}
            """
        } diagnostics: {
            """
            @API
            ┬───
            ╰─ 🛑 @API applies to a struct or a protocol
            class UsersAPI {}
            """
        }
    }

    @Test func mockOnAStructIsRefused() {
        assertMacro {
            """
            @Mock
            struct UsersMock {}
            """
        } diagnostics: {
            """
            @Mock
            ┬────
            ╰─ 🛑 @Mock applies to a protocol
            struct UsersMock {}
            """
        }
    }
}
