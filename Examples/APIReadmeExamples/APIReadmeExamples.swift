public import CourierAPI


/// The examples of the DocC article "Describing an API", compiled: every block between `README:`
/// markers appears word for word in the documentation, and `APIReadmeExamplesTests` checks the
/// requests they build.
public enum APIReadmeExamples {
    /// The request `UsersAPI.getUser(id:)` sends, built but not sent.
    public static func getUserRequest(baseURL: String) throws -> Request {
        try UsersAPI(Provider(baseURL: baseURL)).getUserRequest(id: "ada")
    }

    /// The request `Todos.getTodos(username:)` sends, built but not sent.
    public static func getTodosRequest(baseURL: String) throws -> Request {
        try TodosAPI(provider: Provider(baseURL: baseURL)).getTodosRequest(username: "joshuawright11")
    }

    /// The users example against `baseURL`: the user's name and the todo titles.
    public static func fetchUser(baseURL: String) async throws -> String {
        try await UsersAPI(Provider(baseURL: baseURL)).getUser(id: "ada").name
    }

    /// The mock example: how many repositories the counting service sees.
    public static func countWithMock() async throws -> Int {
        try await mockedCount()
    }
}

struct User: Decodable, Sendable {
    let id: String
    let name: String
}

struct Todo: Decodable, Sendable {
    let title: String
}

struct Message: Encodable, Sendable {
    let role: String
    let content: String
}

// README: api-struct
@API
@Headers(["X-Client": "1.2.3"])
struct UsersAPI {
    @GET("/user")
    func getUser(id: String) async throws -> User               // GET /user?id=…

    @POST("/user")                                              // body {"email": …, "password": …}
    func createUser(email: String, password: String) async throws -> (id: String, name: String)

    @GET("/users/{username}/todos")
    @ResponseKeyPath("data.list")
    func getTodos(username: String) async throws -> [Todo]

    @POST("/chat/completions")
    @EventStreaming
    func completions(model: String, messages: [Message], stream: Bool = true) async throws -> AsyncThrowingStream<String, any Error>
}
// README: end

// README: api-protocol
@API
@Mock
@Authorization(.bearer("my-token"))
protocol Todos {
    @GET("/users/:username/todos")
    func getTodos(username: String) async throws -> [Todo]

    @POST("/todo")
    func createTodo(title: Field<String>, done: Bool) async throws
}
// README: end

func usage() async throws {
    // README: api-usage
    let api = UsersAPI(Provider(baseURL: "https://www.example.com"))
    let user = try await api.getUser(id: "ada")
    for try await chunk in try await api.completions(model: "gpt-5", messages: [Message(role: "user", content: "Hi")]) {
        print(chunk)
    }

    let provider = Provider(baseURL: "https://api.example.com/")
        .modifyRequests { request in request.headerFields[.userAgent] = "Todos/1.0" }
    let todos: any Todos = TodosAPI(provider: provider)   // the generated name is `<Protocol>API`
    let list = try await todos.getTodos(username: user.name)

    print(try api.getUserRequest(id: "ada").curlCommand)   // every endpoint also builds its Request unsent
    // README: end
    _ = list
}

func mockedCount() async throws -> Int {
    // README: api-mock
    let mock = TodosMock()
    mock.mockGetTodos { username in
        precondition(username == "joshuawright11")
        return [Todo(title: "Write the README")]
    }
    let todos: any Todos = mock
    let count = try await todos.getTodos(username: "joshuawright11").count   // 1
    // README: end
    return count
}
