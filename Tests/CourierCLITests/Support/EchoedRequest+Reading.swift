import CourierTestServer
import Foundation

extension CourierRun {
    /// Standard output decoded as the loopback server's echo of the request it received.
    func echoed() throws -> EchoedRequest {
        try JSONDecoder().decode(EchoedRequest.self, from: stdout)
    }
}

extension EchoedRequest {
    /// The values of the header `name` (compared case-insensitively), in the order received.
    func values(of name: String) -> [String] {
        headers.filter { $0.first?.lowercased() == name.lowercased() }.map { $0[1] }
    }

    /// The body as UTF-8 text.
    var text: String {
        String(decoding: body ?? Data(), as: UTF8.self)
    }
}
