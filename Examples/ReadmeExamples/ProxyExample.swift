// README: proxy
import Courier
import CourierAsyncHTTPClient
import HTTPTypes

/// A client whose requests leave through the company proxy, except to internal hosts, with a
/// header every request carries.
func proxiedClient() throws -> (Client, AsyncHTTPClientTransport) {
    var configuration = AsyncHTTPClientTransport.Configuration()
    configuration.proxy = ProxySettings(server: try ProxyServer("http://build:secret@proxy.corp:3128"),
                                        noProxy: ["localhost", ".corp", "10.0.0.0/8"])
    let transport = AsyncHTTPClientTransport(configuration: configuration)
    var settings = Client.Configuration()
    settings.defaultHeaders[.userAgent] = "inventory-sync/2.1"
    return (Client(transport: transport, configuration: settings), transport)  // shut the transport down when done
}
// README: end
