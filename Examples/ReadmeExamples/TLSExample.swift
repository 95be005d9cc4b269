// README: tls
import Courier
import CourierCurl

/// A client for a service behind an internal authority that asks for a client certificate.
func internalServiceClient() -> Client {
    var configuration = CurlTransport.Configuration()
    configuration.tls.caFile = "/etc/ssl/internal-ca.pem"
    configuration.tls.clientCertificate = .init(certificateFile: "client.pem", keyFile: "client.key")
    configuration.tls.minimumVersion = .tls1_3
    return Client(transport: CurlTransport(configuration: configuration))
}
// README: end
