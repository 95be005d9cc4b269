import CourierAPI
import CourierAsyncHTTPClient
import CourierTestServer
import Foundation
import Testing

import struct Courier.Protected

enum Sort: String, Sendable, QueryValue {
    case newest
    case oldest
}

@API
@Mock
@Authorization(.bearer("token-1"))
@Headers(["X-Client-Version": "1.2.3"])
protocol Todos {
    @GET("/anything/users/:username/todos")
    func getTodos(username: String, sort: Query<Sort>, limit: Int?) async throws -> Echo

    @POST("/anything/todo")
    func createTodo(todo: Body<NewUser>, customHeader: Header<String>) async throws -> Echo

    @PATCH("/anything/todo/:id")
    func updateTodo(id: Path<Sort>, name: Field<String>, isDone: Bool) async throws -> Echo

    @URLForm
    @POST("/anything/form")
    func createForm(name: String, isDone: Bool, tags: [String]) async throws -> Echo

    @Http(path: "/anything/custom", method: "PURGE")
    func purge() async throws -> Echo

    @POST("/anything/optional")
    func optionals(nickname: Field<String?>, trace: Header<String?>, note: String?) async throws -> Echo

    @DELETE("/anything/transfers/:id")
    func deleteTransfer(id: Int, reason: String) async throws
}

@Suite("Papyrus-style @API protocols")
struct PapyrusStyleTests {
    @Test(arguments: APITransport.allCases)
    func theGeneratedStructSendsPathsQueriesAndStaticHeaders(over transport: APITransport) async throws {
        try await withProvider(over: transport) { provider, _ in
            let todos: any Todos = TodosAPI(provider: provider)
            let echo = try await todos.getTodos(
                username: "joshuawright11", sort: Query(wrappedValue: .newest), limit: nil)
            #expect(echo.method == "GET")
            #expect(echo.path == "/anything/users/joshuawright11/todos")
            #expect(echo.query == "sort=newest")
            #expect(echo.header("Authorization") == "Bearer token-1")
            #expect(echo.header("X-Client-Version") == "1.2.3")
        }
    }

    @Test(arguments: APITransport.allCases)

    func bodyAndHeaderParameterTypesTakeLiteralsAndValues(over transport: APITransport) async throws {
        try await withProvider(over: transport) { provider, _ in
            let echo = try await TodosAPI(provider: provider).createTodo(
                todo: Body(NewUser(name: "Ada", age: 36)), customHeader: "abc")
            #expect(echo.header("Custom-Header") == "abc")
            #expect(try JSONDecoder().decode(NewUser.self, from: echo.body) == NewUser(name: "Ada", age: 36))
        }
    }

    @Test(arguments: APITransport.allCases)

    func aStringEnumFillsAPathAndFieldsFormOneObject(over transport: APITransport) async throws {
        try await withProvider(over: transport) { provider, _ in
            let echo = try await TodosAPI(provider: provider).updateTodo(id: Path(.oldest), name: "Milk", isDone: true)
            #expect(echo.method == "PATCH")
            #expect(echo.path == "/anything/todo/oldest")
            #expect(echo.text == #"{"isDone":true,"name":"Milk"}"#)
        }
    }

    @Test(arguments: APITransport.allCases)

    func urlFormEncodesFieldsWithRepeatedArrayKeys(over transport: APITransport) async throws {
        try await withProvider(over: transport) { provider, _ in
            let echo = try await TodosAPI(provider: provider).createForm(name: "Milk", isDone: false, tags: ["a", "b"])
            #expect(echo.header("Content-Type") == "application/x-www-form-urlencoded")
            #expect(echo.text == "name=Milk&isDone=false&tags=a&tags=b")
        }
    }

    @Test(arguments: APITransport.allCases)

    func callSitesPassPlainValuesAsWithPapyrusTypeAliases(over transport: APITransport) async throws {
        try await withProvider(over: transport) { provider, _ in
            let todos: any Todos = TodosAPI(provider: provider)
            let todo = NewUser(name: "Ada", age: 36)
            let header = "abc"
            let created = try await todos.createTodo(todo: todo, customHeader: header)
            #expect(created.header("Custom-Header") == "abc")
            let listed = try await todos.getTodos(username: "ada", sort: .oldest, limit: 2)
            #expect(listed.query == "sort=oldest&limit=2")
            let updated = try await todos.updateTodo(id: .newest, name: "Milk", isDone: false)
            #expect(updated.path == "/anything/todo/newest")
        }
    }

    @Test(arguments: APITransport.allCases)

    func nilOptionalsAreLeftOut(over transport: APITransport) async throws {
        try await withProvider(over: transport) { provider, _ in
            let todos: any Todos = TodosAPI(provider: provider)
            let empty = try await todos.optionals(nickname: nil, trace: nil, note: nil)
            #expect(empty.body.isEmpty)
            #expect(empty.header("Trace") == nil)
            let full = try await todos.optionals(nickname: "a", trace: "t", note: "n")
            #expect(full.text == #"{"nickname":"a","note":"n"}"#)
            #expect(full.header("Trace") == "t")
        }
    }

    @Test(arguments: APITransport.allCases)

    func httpWithACustomMethod(over transport: APITransport) async throws {
        try await withProvider(over: transport) { provider, _ in
            let echo = try await TodosAPI(provider: provider).purge()
            #expect(echo.method == "PURGE")
        }
    }

    @Test(arguments: APITransport.allCases)

    func deleteSendsUnannotatedParametersAsQueryItems(over transport: APITransport) async throws {
        try await withProvider(over: transport) { provider, _ in
            let seen = RecordedRequests()
            let recording = provider.intercept { request, next in
                seen.append(request)
                return try await next(request)
            }
            try await TodosAPI(provider: recording).deleteTransfer(id: 9, reason: "dup")
            let request = try #require(seen.all.first)
            #expect(request.method == .delete)
            #expect(request.path == "/anything/transfers/9")
            #expect(request.url.query == "reason=dup")
        }
    }

    @Test func bothTransportsSendTheSameRequest() async throws {
        let transport = AsyncHTTPClientTransport()
        let result = await Result(catching: {
            try await withProvider(transport: transport) { provider, _ in
                try await TodosAPI(provider: provider).getTodos(
                    username: "ada", sort: Query(wrappedValue: .oldest), limit: 3)
            }
        })
        try await transport.shutdown()
        let echo = try result.get()
        #expect(echo.path == "/anything/users/ada/todos")
        #expect(echo.query == "sort=oldest&limit=3")
        #expect(echo.header("Authorization") == "Bearer token-1")
    }

    @Test(arguments: APITransport.allCases)

    func modifyRequestsRunsInTheChain(over transport: APITransport) async throws {
        try await withProvider(over: transport) { provider, _ in
            let modified = provider.modifyRequests { request in
                request.headerFields[.init("X-Modified")!] = "yes"
            }
            let echo = try await TodosAPI(provider: modified).purge()
            #expect(echo.header("X-Modified") == "yes")
        }
    }
}

/// Requests seen by an interceptor, safe to append to from the pipeline.
final class RecordedRequests: Sendable {
    private let requests = Protected<[Request]>([])
    func append(_ request: Request) { requests.withLock { $0.append(request) } }
    var all: [Request] { requests.withLock { $0 } }
}

extension Result where Failure == any Error {
    /// The result of an async throwing operation.
    init(catching body: () async throws -> Success) async {
        do {
            self = .success(try await body())
        } catch {
            self = .failure(error)
        }
    }
}
