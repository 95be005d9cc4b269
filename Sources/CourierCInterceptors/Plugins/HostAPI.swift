package import CCourier

/// The function table a plugin receives in init: every host function it may call, so it never
/// links libcourier and loads under `RTLD_LOCAL` into any host (SQLite's loadable-extension model).
package enum HostAPI {
    /// One table for the whole process; plugins may keep the pointer forever.
    package nonisolated(unsafe) static let table: UnsafeMutablePointer<courier_host_api> = {
        let table = UnsafeMutablePointer<courier_host_api>.allocate(capacity: 1)
        table.initialize(
            to: courier_host_api(
                struct_size: MemoryLayout<courier_host_api>.size,
                abi_major: UInt32(COURIER_ABI_MAJOR),
                abi_minor: UInt32(COURIER_ABI_MINOR),
                register_interceptor: registerInterceptor,
                interceptor_init: courier_interceptor_init,
                strerror: courier_strerror,
                error_code: courier_error_code,
                error_message: courier_error_message,
                error_free: courier_error_free,
                exchange_request: courier_exchange_request,
                exchange_response: courier_exchange_response,
                exchange_respond: courier_exchange_respond,
                exchange_fail: courier_exchange_fail,
                exchange_proceed: courier_exchange_proceed,
                exchange_attempt: courier_exchange_attempt,
                exchange_request_id: courier_exchange_request_id,
                request_method: courier_request_method,
                request_url: courier_request_url,
                request_header: courier_request_header,
                request_header_count: courier_request_header_count,
                request_header_at: courier_request_header_at,
                request_body: courier_request_body,
                request_set_header: courier_request_set_header,
                request_add_header: courier_request_add_header,
                request_remove_header: courier_request_remove_header,
                request_add_query: courier_request_add_query,
                request_set_body_bytes: courier_request_set_body_bytes,
                response_new: courier_response_new,
                response_free: courier_response_free,
                response_status: courier_response_status,
                response_header: courier_response_header,
                response_header_count: courier_response_header_count,
                response_header_at: courier_response_header_at,
                response_body: courier_response_body,
                response_set_status: courier_response_set_status,
                response_set_header: courier_response_set_header,
                response_add_header: courier_response_add_header,
                response_remove_header: courier_response_remove_header,
                response_set_body: courier_response_set_body))
        return table
    }()
}

/// `api->register_interceptor`: adds an interceptor to the plugin being loaded.
private func registerInterceptor(
    _ registrar: OpaquePointer?, _ interceptor: UnsafePointer<courier_interceptor>?,
    _ error: UnsafeMutablePointer<OpaquePointer?>?
) -> courier_code {
    reporting(error, "register_interceptor") {
        guard let box = HandleRegistry.shared.object(registrar, as: RegistrarBox.self) else {
            throw CAPIFailure.invalidHandle(
                "registrar", in: "register_interceptor (only valid during courier_plugin_init)")
        }
        guard let interceptor else {
            throw CAPIFailure.invalidArgument("interceptor is NULL", in: "register_interceptor")
        }
        box.add(try CInterceptor(interceptor, defaultTimeout: box.defaultTimeout, in: "register_interceptor"))
    }
}
