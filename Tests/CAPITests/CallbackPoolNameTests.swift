import CCourier
import TestProcesses
import Testing

@testable import CourierCAPI
@testable import CourierCInterceptors

/// The library's pool threads carry their names, which Linux keeps only up to 15 bytes: longer
/// ones were refused, and the threads kept their creator's. Each thread names itself once it runs,
/// so the names are awaited.
@Suite struct CallbackPoolNameTests {
    @Test func theSharedPoolsThreadsAreNamed() async {
        await CallbackPool.shared.run {}
        #expect(await Self.named(["courier-cb-0", "courier-cb-1", "courier-cb-2", "courier-cb-3"]))
    }

    @Test func aClientsPoolThreadsAreNamed() async {
        var client: OpaquePointer?
        #expect(courier_client_new(nil, &client, nil) == COURIER_OK)
        defer { courier_client_free(client) }
        #expect(await Self.named(["courier-send-0", "courier-send-1"]))
    }

    /// Whether every one of `names` is a thread's name within 10 s.
    private static func named(_ names: Set<String>) async -> Bool {
        for _ in 0..<1000 {
            if ThreadNames.current().isSuperset(of: names) { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return false
    }
}
