import Foundation

extension Route {
    /// `/status/{code}`, any method: an empty response with that status (200 through 599).
    public static let status = Route("/status/{code}") { request in
        guard let code = request.parameters["code"].flatMap({ Int($0) }), (200...599).contains(code) else {
            return .text("status must be a number from 200 to 599\n", status: 400)
        }
        return TestServerResponse(status: code)
    }
}
