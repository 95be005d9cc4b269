// README: transport
import Courier
import CourierAsyncHTTPClient
let client = Client(transport: AsyncHTTPClientTransport())
// README: end
