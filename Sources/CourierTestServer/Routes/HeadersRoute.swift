import Foundation

extension Route {
    /// `/headers`, any method: httpbin's `{"headers": {Name: value, …}}`, and `header_list`, the
    /// header lines in received order with names as sent, so a test can see exactly which headers
    /// a client added.
    public static let headers = Route("/headers") { request in
        try .httpbin(request, .headers)
    }
}
