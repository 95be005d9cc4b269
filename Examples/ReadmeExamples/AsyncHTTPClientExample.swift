// README: transport
import CourierAsyncHTTPClient
let client = Client(transport: AsyncHTTPClientTransport())
// README: end

extension ReadmeExamples {
    /// The README's client on the AsyncHTTPClient transport (a global, as the README writes it),
    /// for a test to send through and then shut its transport down.
    public static var asyncHTTPClientClient: Client { client }
}
