import Courier
import Foundation

/// The one line an error gets on standard error, without the stack or the request dump.
enum ErrorReport {
    static func message(for error: any Error) -> String {
        guard let error = error as? CourierError else { return TerminalSafeText.escaping("\(error)") }
        var text = error.message
        if let source = error.source { text = "\(source): " + text }
        switch error.code {
        case .cannotConnect, .timedOut, .insecureConnection, .invalidResponse, .cancelled:
            if let url = error.request.map({ Redaction().redacting($0.url).absoluteString }), !text.contains(url) {
                text += " (\(url))"
            }
        default:
            break
        }
        return text
    }
}
