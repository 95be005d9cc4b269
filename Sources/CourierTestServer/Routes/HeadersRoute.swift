import Foundation

extension Route {
    /// `/headers`, any method: `{"headers": [[name, value], …]}`, the header lines in received
    /// order with names as sent, so a test can see exactly which headers a client added.
    public static let headers = Route("/headers") { request in
        try .json(["headers": request.headers.map { [$0.name, $0.value] }])
    }
}
