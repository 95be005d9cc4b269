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
        }
    }
}
