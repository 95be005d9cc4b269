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

    @POST("/anything/upload")
    func upload(_ payload: NewUser, progress: OnUploadProgress, downloaded: OnDownloadProgress) async throws -> Echo

    @Multipart
    @POST("/anything/upload")
    func uploadFile(file: URL, meta: [String: String]) async throws -> Echo

    @Multipart
    @PUT("/anything/user/photo")
    func photo(
        @Part(name: "photo", filename: "avatar.jpg", mimeType: "image/jpeg") photo: Data,
        @Part(name: "desc") description: String
    ) async throws -> Echo
}

@Suite("Netrofit-style @API structs")
struct NetrofitStyleTests {
    @Test(arguments: APITransport.allCases)
    func pathPlaceholdersQueriesAndArraysArriveAsDeclared(over transport: APITransport) async throws {
        try await withProvider(over: transport) { provider, _ in
            let echo = try await EchoAPI(provider).todos(
                username: "john doe", page: 2, tags: ["a", "b&c"], cursor: nil)
            #expect(echo.method == "GET")
            #expect(echo.path == "/anything/users/john%20doe/todos")
            #expect(echo.query == "page=2&tags=a&tags=b%26c")
            #expect(echo.header("X-Client") == "1.2.3")
            #expect(echo.body.isEmpty)
        }
    }
}

extension NetrofitStyleTests {
    @Test(arguments: APITransport.allCases)
    func externalLabelsKeyQueriesAndDictionariesExpand(over transport: APITransport) async throws {
        try await withProvider(over: transport) { provider, _ in
            let echo = try await EchoAPI(provider).search(q: "swift http", filters: ["name": "ada", "age": "36"])
            #expect(echo.path == "/anything/search")
            #expect(echo.query == "q=swift%20http&age=36&name=ada")
        }
    }

    @Test(arguments: APITransport.allCases)

    func labelledParametersBecomeJSONFields(over transport: APITransport) async throws {
        try await withProvider(over: transport) { provider, _ in
            let echo = try await EchoAPI(provider).createUser(email: "ada@example.com", password: "p&ss")
            #expect(echo.method == "POST")
            #expect(echo.query == "")
            #expect(echo.header("Content-Type") == "application/json")
            #expect(echo.text == #"{"email":"ada@example.com","password":"p&ss"}"#)
        }
    }

    @Test(arguments: APITransport.allCases)

    func pathParametersNeverEndUpInTheBody(over transport: APITransport) async throws {
        try await withProvider(over: transport) { provider, _ in
            let echo = try await EchoAPI(provider).updateUser(id: 42, NewUser(name: "Ada", age: 36))
            #expect(echo.method == "PUT")
            #expect(echo.path == "/anything/users/42")
            #expect(try JSONDecoder().decode(NewUser.self, from: echo.body) == NewUser(name: "Ada", age: 36))
        }
    }

    @Test(arguments: APITransport.allCases)

    func anExplicitBodyAndAQueryOnPost(over transport: APITransport) async throws {
        try await withProvider(over: transport) { provider, _ in
            let echo = try await EchoAPI(provider).addItem(item: NewUser(name: "Bo", age: 1), notify: true)
            #expect(echo.query == "notify=true")
            #expect(try JSONDecoder().decode(NewUser.self, from: echo.body) == NewUser(name: "Bo", age: 1))
        }
    }

    @Test(arguments: APITransport.allCases)

    func formFieldsAreURLEncodedUnderTheirKeys(over transport: APITransport) async throws {
        try await withProvider(over: transport) { provider, _ in
            let echo = try await EchoAPI(provider).createForm(name: "Ada L", id: "7")
            #expect(echo.header("Content-Type") == "application/x-www-form-urlencoded")
            #expect(echo.text == "new_name=Ada+L&id=7")
        }
    }

    @Test(arguments: APITransport.allCases)

    func methodHeadersWinOverTypeHeaders(over transport: APITransport) async throws {
        try await withProvider(over: transport) { provider, _ in
            let echo = try await EchoAPI(provider).getUser(token: "Bearer abc", headers: ["X-Extra": "1"])
            #expect(echo.header("X-Client") == "9")
            #expect(echo.header("Accept") == "application/json")
            #expect(echo.header("Authorization") == "Bearer abc")
            #expect(echo.header("X-Extra") == "1")
        }
    }

    @Test(arguments: APITransport.allCases)

    func customMethodAndEncodedPathValue(over transport: APITransport) async throws {
        try await withProvider(over: transport) { provider, _ in
            let echo = try await EchoAPI(provider).link(raw: "a%2Fb")
            #expect(echo.method == "LINK")
            #expect(echo.path == "/anything/link/a%2Fb")
        }
    }

    @Test(arguments: APITransport.allCases)

    func aStaticQueryInThePathIsKept(over transport: APITransport) async throws {
        try await withProvider(over: transport) { provider, _ in
            let echo = try await EchoAPI(provider).transactions(limit: 5)
            #expect(echo.query == "merchant=Apple&limit=5")
        }
    }

    @Test(arguments: APITransport.allCases)

    func pathValuesAreOneEncodedSegment(over transport: APITransport) async throws {
        try await withProvider(over: transport) { provider, _ in
            let echo = try await EchoAPI(provider).file(name: "a b/c?d")
            #expect(echo.path == "/anything/files/a%20b%2Fc%3Fd")
        }
    }

    @Test(arguments: APITransport.allCases)

    func multipartPartsCarryTheirNamesFilenamesAndTypes(over transport: APITransport) async throws {
        try await withProvider(over: transport) { provider, _ in
            let echo = try await EchoAPI(provider).photo(photo: Data("JPEG".utf8), description: "me")
            let contentType = try #require(echo.header("Content-Type"))
            #expect(contentType.hasPrefix("multipart/form-data; boundary="))
            let boundary = String(contentType.dropFirst("multipart/form-data; boundary=".count))
            #expect(
                echo.text == """
                    --\(boundary)\r
                    Content-Disposition: form-data; name="photo"; filename="avatar.jpg"\r
                    Content-Type: image/jpeg\r
                    \r
                    JPEG\r
                    --\(boundary)\r
                    Content-Disposition: form-data; name="desc"\r
                    \r
                    me\r
                    --\(boundary)--\r

                    """)
        }
    }

    @Test func theRequestOfAnEndpointCanBeBuiltWithoutSendingIt() throws {
        let api = EchoAPI(Provider(baseURL: "https://api.example.com/v1"))
        let request = try api.todosRequest(username: "ada", page: 1, tags: [], cursor: "c1")
        #expect(request.method == .get)
        #expect(request.url.absoluteString == "https://api.example.com/v1/anything/users/ada/todos?page=1&cursor=c1")
        #expect(request.headerFields[.init("X-Client")!] == "1.2.3")
        #expect(request.curlCommand.contains("https://api.example.com/v1/anything/users/ada/todos?page=1&cursor=c1"))
    }
}

extension NetrofitStyleTests {
    @Test(arguments: APITransport.allCases)
    func progressParametersReportTheUploadAndTheDownload(over transport: APITransport) async throws {
        try await withProvider(over: transport) { provider, _ in
            let sent = Delivery<Int64>()
            let received = Delivery<Int64>()
            let echo = try await EchoAPI(provider).upload(
                NewUser(name: "Ada", age: 36),
                progress: OnUploadProgress { bytes, _ in sent.deliver(bytes) },
                downloaded: OnDownloadProgress { bytes, _ in received.deliver(bytes) })
            #expect(echo.body.count == 23)
            #expect(sent.all.last == 23)
            #expect((received.all.last ?? 0) > 0)
        }
    }
}

extension NetrofitStyleTests {
    @Test(arguments: APITransport.allCases)
    func aFileURLIsStreamedAsAPartAndADictionaryAddsTextParts(over transport: APITransport) async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("api-\(UUID()).txt")
        try Data("FILE CONTENT".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        try await withProvider(over: transport) { provider, _ in
            let api = EchoAPI(provider)
            let request = try api.uploadFileRequest(file: file, meta: ["kind": "note"])
            #expect(request.body?.segments?.contains(.file(file, length: 12)) == true)
            let echo = try await api.uploadFile(file: file, meta: ["kind": "note"])
            #expect(
                echo.text.contains(
                    "Content-Disposition: form-data; name=\"file\"; filename=\"\(file.lastPathComponent)\"\r\n"))
            #expect(echo.text.contains("FILE CONTENT"))
            #expect(echo.text.contains("Content-Disposition: form-data; name=\"kind\"\r\n\r\nnote\r\n"))
        }
    }
}
