public import CourierCurl
import Foundation
import HTTPTypes

/// The examples of the DocC articles (Sources/Courier/Courier.docc), compiled and tested: every block
/// between `README:` markers appears word for word in an article, and `ReadmeExamplesTests` checks
/// what each one does.
public enum DocCExamples {
    /// A user as the overview's and the testing article's examples decode it.
    public struct User: Decodable, Sendable {
        public let id: Int
    }

    /// A session as the getting-started example decodes it.
    public struct Session: Decodable, Sendable {
        public let token: String
    }

    /// The catalog's overview: a client with retry and logging on libcurl, decoding a user.
    static func overview() async throws -> User {
        // README: overview
        let client = Client(transport: CurlTransport(), interceptors: [RetryInterceptor(), LoggingInterceptor()])
        let user = try await client.send(try Request {
            BaseURL("https://api.example.com")
            Endpoint("/v1/users/42")
            Accept(.json)
        }, decoding: User.self)
        // README: end
        return user
    }

    /// Getting Started: the request, sent through retry and logging and decoded.
    public static func startSession(_ request: Request) async throws -> Session {
        // README: getting-started-send
        let client = Client(interceptors: [RetryInterceptor(), LoggingInterceptor()])
        let session = try await client.send(request, decoding: Session.self)
        // README: end
        return session
    }

    /// Building Requests: a GET with query items, a repeated one among them, and a custom header.
    public static func usersPage() throws -> Request {
        // README: building
        let request = try Request {
            Method.GET
            BaseURL("https://api.example.com")
            Endpoint("/v1/users")
            Query("page", 2)
            Query("tag", "swift")
            Query("tag", "http")
            Accept(.json)
            Header.custom("X-Trace").setValue("1")
        }
        // README: end
        return request
    }

    /// Building Requests: a built request edited with one more block.
    public static func retraced(_ request: Request) throws -> Request {
        // README: updating
        let traced = try request.updating { Header.custom("X-Trace").setValue("2") }
        // README: end
        return traced
    }

    /// Testing: a scripted 503, then a user; the retry sends the request twice.
    public static func userThroughMock(_ request: Request) async throws -> (user: User, paths: [String]) {
        // README: mock
        let mock = MockTransport()
        mock.enqueue(.status(.serviceUnavailable))
        mock.enqueue(.json(#"{"id": 42}"#))
        let client = Client(transport: mock, interceptors: [RetryInterceptor()])
        let user = try await client.send(request, decoding: User.self)
        let paths = mock.requests.map(\.url.path)  // ["/v1/users/42", "/v1/users/42"]: the 503, then the retry
        // README: end
        return (user, paths)
    }
}
