import Foundation

extension Route {
    /// `/anything` and any path under it, any method: the same answer as `/echo`, under the
    /// name httpbin uses, so examples written against httpbin run unchanged.
    public static let anything = Route("/anything/**") { request in
        try .json(EchoedRequest(request))
    }
}
