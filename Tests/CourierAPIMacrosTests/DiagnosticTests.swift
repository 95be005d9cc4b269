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
        }
    }

    @Test func aFunctionWithoutAMethodAttributeIsNamed() {
        assertMacro {
            """
            @API
            protocol Users {
                func getUser() async throws -> User
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
        }
    }

    @Test func apiOnAClassIsRefused() {
        assertMacro {
            """
            @API
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
        }
    }
}
