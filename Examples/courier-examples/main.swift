import CourierCurl
import Foundation
import HTTPTypes
import ReadmeExamples

/// Prints each documented example as the request it builds, then as a curl command.
func show(_ title: String, _ request: Request) async throws {
    print("== \(title)")
    print("\(request.method) \(request.url.absoluteString)")
    for field in request.wireHeaderFields {
        print("\(field.name): \(field.value)")
    }
    if let body = request.body {
        let bytes = try await body.collect()
        print("")
        print(String(decoding: bytes.prefix(600), as: UTF8.self) + (bytes.count > 600 ? "… (\(bytes.count) bytes)" : ""))
    }
    print("")
}

let photo = FileManager.default.temporaryDirectory.appendingPathComponent("courier-example-photo.jpg")
try Data("not really a JPEG, but the bytes are sent as they are".utf8).write(to: photo)
defer { try? FileManager.default.removeItem(at: photo) }

try await show("login", ReadmeExamples.login())
try await show("grouped headers", ReadmeExamples.search(term: "swift http", page: 2, locale: "en-GB"))
try await show("multipart upload (streamed)", ReadmeExamples.upload(photo: photo))
try await show("endpoint repository: getUser", ReadmeExamples.users.getUser("42").request)
try await show("endpoint repository: listUsers", ReadmeExamples.users.listUsers(3).request)
print("== curlCommand")
print(try ReadmeExamples.curlCommand())
print("")
print("== bad input")
print(ReadmeExamples.injectedHeader().map { "\($0)" } ?? "no error?")
print("")
try await runLiveExchange()
