import CourierCurl
import Testing

/// Unless set, the idle connections kept follow the per-host limit, so raising that limit alone
/// does not close and reopen the connections above 32 on every request.
@Suite struct CurlIdleConnectionsTests {
    @Test func unsetTheIdleLimitIs32OrThePerHostLimitWhenThatIsMore() {
        var configuration = CurlTransport.Configuration()
        #expect(configuration.maxIdleConnections == 32)
        configuration.maxConnectionsPerHost = 256
        #expect(configuration.maxIdleConnections == 256)
        configuration.maxConnectionsPerHost = 0  // unlimited per host
        #expect(configuration.maxIdleConnections == 32)
    }

    @Test func aChosenIdleLimitIsKeptWhateverThePerHostLimit() {
        var configuration = CurlTransport.Configuration()
        configuration.maxIdleConnections = 4
        configuration.maxConnectionsPerHost = 256
        #expect(configuration.maxIdleConnections == 4)
    }
}
