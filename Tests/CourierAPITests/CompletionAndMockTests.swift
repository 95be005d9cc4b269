import CourierAPI
import CourierTestServer
import Foundation
import Testing

import struct Courier.Protected

@API
@Mock
protocol Accounts {
    @GET("/user")
    func getUser(callback: @escaping (Result<User, any Error>) -> Void)

    @POST("/anything/user")
    func createUser(email: String, completion: @escaping (Result<Void, any Error>) -> Void)

    @GET("/status/{code}")
    func status(code: Int, completion: @escaping (Response) -> Void) -> Task<Void, Never>

    @GET("/anything/repos/:username")
    func repositories(username: String, page: Query<Int>) async throws -> [String]
}

/// The single value a completion handler was called with, and how often it was called.
final class Delivery<Value: Sendable>: Sendable {
    private let values = Protected<[Value]>([])
    func deliver(_ value: Value) { values.withLock { $0.append(value) } }
    var all: [Value] { values.withLock { $0 } }
}

@Suite("Completion handlers and @Mock")
struct CompletionAndMockTests {
    @Test func aResultHandlerIsCalledOnceWithTheDecodedValue() async throws {
        try await withProvider { provider, _ in
            let delivery = Delivery<String>()
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                AccountsAPI(provider: provider).getUser { result in
                    delivery.deliver((try? result.get().name) ?? "failed")
                    done.resume()
                }
            }
            #expect(delivery.all == ["Ada"])
        }
    }

    @Test func aVoidResultHandlerReportsSuccess() async throws {
        try await withProvider { provider, _ in
            let delivery = Delivery<Bool>()
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                AccountsAPI(provider: provider).createUser(email: "a@b.c") { result in
                    delivery.deliver((try? result.get()) != nil)
                    done.resume()
                }
            }
            #expect(delivery.all == [true])
        }
    }

    @Test func aResponseHandlerGetsEveryStatusAndReturnsACancellableTask() async throws {
        try await withProvider { provider, _ in
            let delivery = Delivery<Int>()
            let task = AccountsAPI(provider: provider).status(code: 503) { response in
                delivery.deliver(response.status.code)
            }
            await task.value
            #expect(delivery.all == [503])
        }
    }

    @Test func mockedEndpointsAnswerWithTheirClosures() async throws {
        let mock = AccountsMock()
        mock.mockRepositories { username, page in
            #expect(username == "joshuawright11")
            #expect(page == 2)
            return ["papyrus", "alchemy"]
        }
        let accounts: any Accounts = mock
        #expect(try await accounts.repositories(username: "joshuawright11", page: 2) == ["papyrus", "alchemy"])
    }

    @Test func anEndpointCalledWithoutAMockThrowsAClearError() async throws {
        let error = await #expect(throws: MockNotSet.self) {
            _ = try await AccountsMock().repositories(username: "a", page: 1)
        }
        #expect(
            error?.description
                == "repositories(username:page:) was called but not mocked; call mockRepositories { … } on the mock first"
        )
    }

    @Test func mockedCompletionHandlersAreCalledOnce() async throws {
        let mock = AccountsMock()
        mock.mockGetUser { User(id: "1", name: "Mocked") }
        let delivery = Delivery<String>()
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            mock.getUser { result in
                delivery.deliver((try? result.get().name) ?? "failed")
                done.resume()
            }
        }
        #expect(delivery.all == ["Mocked"])
    }
}

@API
@Mock
private protocol Internals {
    @GET("/anything/internal/:id")
    func item(id: Path<Int>) async throws -> Echo
}

@Suite("Access levels")
struct AccessLevelTests {
    @Test func aPrivateProtocolGetsFilePrivateConformances() async throws {
        try await withProvider { provider, _ in
            let echo = try await InternalsAPI(provider: provider).item(id: 4)
            #expect(echo.path == "/anything/internal/4")
        }
        let mock = InternalsMock()
        mock.mockItem { id in
            #expect(id == 5)
            throw CourierError(.invalidRequest, "mocked failure")
        }
        await #expect(throws: CourierError.self) { try await mock.item(id: 5) }
    }
}
