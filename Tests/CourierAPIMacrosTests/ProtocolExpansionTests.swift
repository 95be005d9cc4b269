import MacroTesting
import Testing

@Suite("Expansion of @API and @Mock protocols", .macros(apiMacros))
struct ProtocolExpansionTests {
    @Test func apiProtocolGetsAConformingStructWithItsAccessLevel() {
        assertMacro {
            """
            @API
            @Authorization(.bearer("<token>"))
            public protocol Todos {
                @GET("/users/:username/todos")
                func getTodos(username: String) async throws -> [Todo]
                @POST("/todo")
                func createTodo(todo: Body<Todo>, customHeader: Header<String>) async throws
            }
            """
        } expansion: {
            """
            public protocol Todos {
                func getTodos(username: String) async throws -> [Todo]
                func createTodo(todo: Body<Todo>, customHeader: Header<String>) async throws
            }

            /// `Todos` on a `Provider`: every endpoint sends its request through the provider's client.
            public struct TodosAPI: Todos, Sendable {
                /// Where requests go and the client they are sent with.
                public let provider: Provider

                /// The API on `provider`.
                public init(provider: Provider) {
                    self.provider = provider
                }

                /// The API on `provider`.
                public init(_ provider: Provider) {
                    self.provider = provider
                }

                public func getTodos(username: String) async throws -> [Todo] {
                    let request = try getTodosRequest(username: username)
                    return try await provider.decode(request, as: [Todo].self)
                }

                /// The request `getTodos` sends, built but not sent.
                public func getTodosRequest(username: String) throws -> Request {
                    var endpoint = APIRequest(method: "GET", path: "/users/:username/todos")
                    endpoint.authorization(.bearer("<token>"))
                    endpoint.path("username", username)
                    return try provider.request(for: endpoint)
                }

                public func createTodo(todo: Body<Todo>, customHeader: Header<String>) async throws {
                    let request = try createTodoRequest(todo: todo, customHeader: customHeader)
                    try await provider.send(request)
                }

                /// The request `createTodo` sends, built but not sent.
                public func createTodoRequest(todo: Body<Todo>, customHeader: Header<String>) throws -> Request {
                    var endpoint = APIRequest(method: "POST", path: "/todo")
                    endpoint.authorization(.bearer("<token>"))
                    endpoint.body(todo)
                    endpoint.header("Custom-Header", customHeader)
                    return try provider.request(for: endpoint)
                }
            }

            extension Todos {
                /// `createTodo` with plain values for its parameter types.
                public func createTodo(todo: Todo, customHeader: String) async throws {
                    try await createTodo(todo: Body(wrappedValue: todo), customHeader: Header(wrappedValue: customHeader))
                }
            }
            """
        }
    }

    @Test func mockProtocolGetsAMockFunctionPerEndpoint() {
        assertMacro {
            """
            @Mock
            protocol GitHub {
                @GET("/users/:username/repos")
                func getRepositories(username: String, specialHeader: Header<String>) async throws -> [Repository]
                @GET("/user")
                func getUser(callback: @escaping (Result<User, Error>) -> Void)
            }
            """
        } expansion: {
            """
            protocol GitHub {
                func getRepositories(username: String, specialHeader: Header<String>) async throws -> [Repository]
                func getUser(callback: @escaping (Result<User, Error>) -> Void)
            }

            /// `GitHub` answered by closures: set one per endpoint with its `mock…` function.
            final class GitHubMock: GitHub, Sendable {
                /// The closures set so far.
                let mocks = MockRegistry()

                /// A mock with no endpoint mocked yet.
                init() {
                }

                func getRepositories(username: String, specialHeader: Header<String>) async throws -> [Repository] {
                    let handler = try mocks.handler("getRepositories(username:specialHeader:)", mockFunction: "mockGetRepositories", as: (@Sendable (String, String) async throws -> [Repository]).self)
                    return try await handler(username, specialHeader.wrappedValue)
                }

                /// Answers `getRepositories(username:specialHeader:)` with `handler` from now on.
                func mockGetRepositories(_ handler: @escaping @Sendable (String, String) async throws -> [Repository]) {
                    mocks.set("getRepositories(username:specialHeader:)", handler)
                }

                func getUser(callback: @escaping (Result<User, Error>) -> Void) {
                    mocks.complete("getUser(callback:)", mockFunction: "mockGetUser", as: (@Sendable () async throws -> User).self, callback) { handler in
                        try await handler()
                    }
                }

                /// Answers `getUser(callback:)` with `handler` from now on.
                func mockGetUser(_ handler: @escaping @Sendable () async throws -> User) {
                    mocks.set("getUser(callback:)", handler)
                }
            }
            """
        }
    }

    @Test func everyMethodAttributeAndURLFormAtProtocolLevel() {
        assertMacro {
            """
            @API
            @URLForm
            protocol Methods {
                @PATCH("/todo/:id")
                func update(id: Int, name: String) async throws
                @OPTIONS("/meta")
                func meta() async throws -> HTTPFields
                @TRACE("/trace")
                func trace(depth: Int) async throws -> Response
                @CONNECT("/tunnel")
                func tunnel() async throws
                @Http(path: "/cache/:key", method: "PURGE")
                func purge(key: String) async throws
            }
            """
        } expansion: {
            """
            protocol Methods {
                func update(id: Int, name: String) async throws
                func meta() async throws -> HTTPFields
                func trace(depth: Int) async throws -> Response
                func tunnel() async throws
                func purge(key: String) async throws
            }

            /// `Methods` on a `Provider`: every endpoint sends its request through the provider's client.
            struct MethodsAPI: Methods, Sendable {
                /// Where requests go and the client they are sent with.
                let provider: Provider

                /// The API on `provider`.
                init(provider: Provider) {
                    self.provider = provider
                }

                /// The API on `provider`.
                init(_ provider: Provider) {
                    self.provider = provider
                }

                func update(id: Int, name: String) async throws {
                    let request = try updateRequest(id: id, name: name)
                    try await provider.send(request)
                }

                /// The request `update` sends, built but not sent.
                func updateRequest(id: Int, name: String) throws -> Request {
                    var endpoint = APIRequest(method: "PATCH", path: "/todo/:id")
                    endpoint.encoding = .urlForm()
                    endpoint.path("id", id)
                    endpoint.field("name", name)
                    return try provider.request(for: endpoint)
                }

                func meta() async throws -> HTTPFields {
                    let request = try metaRequest()
                    return try await provider.headers(request)
                }

                /// The request `meta` sends, built but not sent.
                func metaRequest() throws -> Request {
                    var endpoint = APIRequest(method: "OPTIONS", path: "/meta")
                    endpoint.encoding = .urlForm()
                    return try provider.request(for: endpoint)
                }

                func trace(depth: Int) async throws -> Response {
                    let request = try traceRequest(depth: depth)
                    return try await provider.response(request)
                }

                /// The request `trace` sends, built but not sent.
                func traceRequest(depth: Int) throws -> Request {
                    var endpoint = APIRequest(method: "TRACE", path: "/trace")
                    endpoint.encoding = .urlForm()
                    endpoint.query("depth", depth)
                    return try provider.request(for: endpoint)
                }

                func tunnel() async throws {
                    let request = try tunnelRequest()
                    try await provider.send(request)
                }

                /// The request `tunnel` sends, built but not sent.
                func tunnelRequest() throws -> Request {
                    var endpoint = APIRequest(method: "CONNECT", path: "/tunnel")
                    endpoint.encoding = .urlForm()
                    return try provider.request(for: endpoint)
                }

                func purge(key: String) async throws {
                    let request = try purgeRequest(key: key)
                    try await provider.send(request)
                }

                /// The request `purge` sends, built but not sent.
                func purgeRequest(key: String) throws -> Request {
                    var endpoint = APIRequest(method: "PURGE", path: "/cache/:key")
                    endpoint.encoding = .urlForm()
                    endpoint.path("key", key)
                    return try provider.request(for: endpoint)
                }
            }
            """
        }
    }
}
