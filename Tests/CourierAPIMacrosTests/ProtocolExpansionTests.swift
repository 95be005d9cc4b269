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
}
