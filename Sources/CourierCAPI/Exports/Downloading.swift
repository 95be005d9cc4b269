public import CCourier
import Courier
import CourierCInterceptors

/// `courier_client_download`: `Client.download(_:to:resume:)` for C, blocking as `courier_client_send_with`.
@c @implementation
public func courier_client_download(
    _ client: OpaquePointer?, _ request: OpaquePointer?, _ path: UnsafePointer<CChar>?, _ resume: Int32,
    _ options: UnsafePointer<courier_send_options>?,
    _ response: UnsafeMutablePointer<OpaquePointer?>?,
    _ error: UnsafeMutablePointer<OpaquePointer?>?
) -> courier_code {
    reporting(error) {
        let path = try CInput.string(path, "path")
        try runBlocking(client, request, options, response) { operation in
            guard !operation.handsResponseToCallbacks else {
                throw CAPIFailure.invalidArgument(
                    "on_data and on_head have no place in a download: the body goes to the file",
                    in: "courier_client_download")
            }
            return try await operation.client.download(operation.request, to: path, resume: resume != 0)
        }
    }
}
