import CCourier
import CourierCurl
import Testing

@testable import CourierCAPI

/// Unset, `max_idle_connections` keeps at least one idle connection per connection a host may
/// have: with a fixed 32, a burst of responses closed connections the next sends opened again.
@Suite struct ClientOptionsIdleConnectionsTests {
    private func idleConnections(perHost: Int32, idle: Int32 = 0) throws -> Int {
        var options = courier_client_options()
        courier_client_options_init(&options)
        options.max_connections_per_host = perHost
        options.max_idle_connections = idle
        return try ClientOptions(options).curlConfiguration().maxIdleConnections
    }

    @Test func unsetIdleConnectionsFollowTheConnectionsAHostMayHave() throws {
        #expect(try idleConnections(perHost: 0) == 32)
        #expect(try idleConnections(perHost: 8) == 32)
        #expect(try idleConnections(perHost: 256) == 256)
        #expect(try idleConnections(perHost: -1) == 32)
    }

    @Test func aSetIdleConnectionLimitIsKeptAsSet() throws {
        #expect(try idleConnections(perHost: 256, idle: 4) == 4)
        #expect(try idleConnections(perHost: 0, idle: 100) == 100)
    }
}
