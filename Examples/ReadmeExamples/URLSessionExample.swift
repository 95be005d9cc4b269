// README: urlsession
import Courier
import CourierURLSession

/// A client on URLSession with Courier's settings; one URLSession cannot honour on this platform
/// is refused by name, here, instead of being ignored.
func urlSessionClient() throws -> Client {
    var settings = URLSessionTransport.Settings()
    settings.maxConnectionsPerHost = 4
    settings.userAgent = "inventory-sync/2.1"
    return Client(transport: try URLSessionTransport(settings: settings))
}
// README: end

