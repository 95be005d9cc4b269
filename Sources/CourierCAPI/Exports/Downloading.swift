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
        guard !ThreadRole.isInsideCallback else {
            throw CAPIFailure(
                COURIER_E_WOULD_BLOCK,
                detail: "a blocking download from inside a Courier callback would deadlock")
        }
        let client = try clientBox(client)
        let request = try requestBox(request)
        let path = try CInput.string(path, "path")
        guard let response else { throw CAPIFailure.invalidArgument("response is NULL") }
        let operation = try SendOperation(client: client.snapshot, request: request.request, options: options)
        guard !operation.handsResponseToCallbacks else {
            throw CAPIFailure.invalidArgument(
                "on_data and on_head have no place in a download: the body goes to the file")
        }
        guard client.pool.begin() else { throw CAPIFailure.invalidHandle("client") }
        defer { client.pool.end() }
        let result = ThreadRole.current.sendWorker.run(checking: operation.shouldCancel) {
            try await operation.client.download(operation.request, to: path, resume: resume != 0)
        }
        response.pointee = try register(ResponseBox(try result.get()))
    }
}
