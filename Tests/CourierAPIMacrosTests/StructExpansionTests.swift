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
        }
    }
}
