import CFFI
import CourierTestServer
import Foundation
import Testing

/// The functions the closure calls back into, reachable from a C callback through its user data.
private final class ClosureContext {
    let exchangeRequest: FFIFunction
    let requestSetHeader: FFIFunction
    var calls = 0

    init(_ library: UnsafeMutableRawPointer) throws {
        exchangeRequest = try FFIFunction(library, "courier_exchange_request", returns: .int32)
        requestSetHeader = try FFIFunction(library, "courier_request_set_header", returns: .int32)
    }
}

/// The body of the libffi closure used as an interceptor's on_request: it receives
/// (void *user_data, courier_exchange *exchange), adds `X-FFI-Closure: 1` to the exchange's
/// request through libffi calls, and returns COURIER_ACTION_CONTINUE (0), or FAIL (2).
private func onRequestThroughFFI(
    _ cif: UnsafeMutablePointer<ffi_cif>?,
    _ result: UnsafeMutableRawPointer?,
    _ arguments: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
    _ context: UnsafeMutableRawPointer?
) {
    guard let result, let arguments, let context,
        let exchange = arguments[1]?.load(as: UnsafeRawPointer?.self)
    else { return }
    let functions = Unmanaged<ClosureContext>.fromOpaque(context).takeUnretainedValue()
    functions.calls += 1
    var request: UnsafeRawPointer?
    let action: UInt64 = withUnsafeMutablePointer(to: &request) { requestSlot in
        guard (try? functions.exchangeRequest.code(.pointer(exchange), .pointer(requestSlot), .pointer(nil))) == 0,
            (try? functions.requestSetHeader.code(
                .pointer(requestSlot.pointee), .pointer(cString("X-FFI-Closure")),
                .pointer(cString("1")), .pointer(nil))) == 0
        else { return 2 }
        return 0
    }
    result.storeBytes(of: action, as: UInt64.self)
}

/// A C string that lives for the process (the few the test passes are copied by the library).
private func cString(_ text: String) -> UnsafeRawPointer {
    UnsafeRawPointer(strdup(text)!)
}

/// The C library (libCourierC.so, SONAME libcourier.so.1) loaded with dlopen and driven only through libffi, as Python's cffi or any
/// other foreign-function interface would: no Swift or C declaration of the library is used.
struct FFIABITests {
    @Test func everyFunctionInTheHeaderIsExported() async throws {
        let artifacts = try await CAPIArtifacts.shared.value
        let library = try #require(
            dlopen(artifacts.library.path, RTLD_NOW | RTLD_LOCAL), "\(String(cString: dlerror()))")
        let functions = try CHeaderTests.declaredFunctions(
            in: URL(fileURLWithPath: artifacts.include).appendingPathComponent("courier.h"))
        let missing = functions.filter { dlsym(library, $0) == nil }
        #expect(functions.count > 60)
        #expect(missing.isEmpty, "libcourier.so does not export \(missing)")
    }

    @Test func sendsThroughLibffiWithAClosureInterceptor() async throws {
        let artifacts = try await CAPIArtifacts.shared.value
        let library = try #require(
            dlopen(artifacts.library.path, RTLD_NOW | RTLD_LOCAL), "\(String(cString: dlerror()))")
        func function(_ name: String, _ returns: FFIReturn = .int32) throws -> FFIFunction {
            try FFIFunction(library, name, returns: returns)
        }

        let version = try function("courier_abi_version", .uint32).call([])
        #expect(version >> 16 == 1)
        let versionText = try #require(try function("courier_version", .pointer).pointer())
        #expect(!String(cString: versionText.assumingMemoryBound(to: CChar.self)).isEmpty)

        // Out parameters are pointer-sized slots, as a foreign caller would allocate them.
        let slots = UnsafeMutablePointer<UnsafeRawPointer?>.allocate(capacity: 8)
        slots.initialize(repeating: nil, count: 8)
        defer { slots.deallocate() }
        let client = slots, request = slots + 1, response = slots + 2, error = slots + 3, body = slots + 4

        // A failing call hands back an error object with a code and message.
        #expect(
            try function("courier_request_new").code(
                .pointer(cString("GET")), .pointer(cString("not a url")),
                .pointer(request), .pointer(error)) == 3)
        #expect(try function("courier_error_code").code(.pointer(error.pointee)) == 3)
        let message = try #require(try function("courier_error_message", .pointer).pointer(.pointer(error.pointee)))
        #expect(!String(cString: message.assumingMemoryBound(to: CChar.self)).isEmpty)
        #expect(try function("courier_error_free").code(.pointer(error.pointee)) == 0)

        // The interceptor struct: filled by courier_interceptor_init, then name and on_request set.
        let context = try ClosureContext(library)
        let interceptor = UnsafeMutableRawPointer.allocate(byteCount: 256, alignment: 16)
        interceptor.initializeMemory(as: UInt8.self, repeating: 0, count: 256)
        defer { interceptor.deallocate() }
        try function("courier_interceptor_init", .void).call([.pointer(interceptor)])
        let pointerSize = MemoryLayout<UnsafeRawPointer>.size
        #expect(interceptor.load(as: Int.self) == 7 * pointerSize)

        var code: UnsafeMutableRawPointer?
        let closure = try #require(ffi_closure_alloc(MemoryLayout<ffi_closure>.size, &code))
        defer { ffi_closure_free(closure) }
        let closureCIF = UnsafeMutablePointer<ffi_cif>.allocate(capacity: 1)
        let closureTypes = UnsafeMutablePointer<UnsafeMutablePointer<ffi_type>?>.allocate(capacity: 2)
        defer {
            closureCIF.deallocate()
            closureTypes.deallocate()
        }
        closureTypes[0] = cffi_type_pointer()
        closureTypes[1] = cffi_type_pointer()
        #expect(ffi_prep_cif(closureCIF, FFI_DEFAULT_ABI, 2, cffi_type_sint32(), closureTypes) == FFI_OK)
        let retained = Unmanaged.passRetained(context)
        defer { retained.release() }
        #expect(
            ffi_prep_closure_loc(
                closure.assumingMemoryBound(to: ffi_closure.self), closureCIF, onRequestThroughFFI,
                retained.toOpaque(), code) == FFI_OK)
        (interceptor + pointerSize).storeBytes(of: cString("ffi-closure"), as: UnsafeRawPointer.self)
        (interceptor + 2 * pointerSize).storeBytes(of: UnsafeRawPointer(code), as: UnsafeRawPointer?.self)

        let (status, text) = try await withTestServer { server in
            #expect(try function("courier_client_new").code(.pointer(nil), .pointer(client), .pointer(error)) == 0)
            #expect(
                try function("courier_client_add_interceptor").code(
                    .pointer(client.pointee), .pointer(interceptor), .pointer(nil)) == 0)
            let url = server.baseURL.appendingPathComponent("headers").absoluteString
            #expect(
                try function("courier_request_new").code(
                    .pointer(cString("GET")), .pointer(cString(url)),
                    .pointer(request), .pointer(nil)) == 0)
            #expect(
                try function("courier_request_set_header").code(
                    .pointer(request.pointee), .pointer(cString("X-Caller")), .pointer(cString("libffi")), .pointer(nil)
                ) == 0)
            #expect(
                try function("courier_client_send").code(
                    .pointer(client.pointee), .pointer(request.pointee), .pointer(response), .pointer(error)) == 0)
            var status: Int32 = 0
            _ = try withUnsafeMutablePointer(to: &status) { statusSlot in
                try function("courier_response_status").code(
                    .pointer(response.pointee), .pointer(statusSlot), .pointer(nil))
            }
            var length = 0
            _ = try withUnsafeMutablePointer(to: &length) { lengthSlot in
                try function("courier_response_body").code(
                    .pointer(response.pointee), .pointer(body), .pointer(lengthSlot), .pointer(nil))
            }
            let bytes = UnsafeRawBufferPointer(start: body.pointee, count: length)
            return (status, String(decoding: bytes, as: UTF8.self))
        }
        #expect(status == 200)
        #expect(text.contains("[\"X-Caller\",\"libffi\"]"), "\(text)")
        #expect(text.contains("[\"X-FFI-Closure\",\"1\"]"), "\(text)")
        #expect(context.calls == 1)

        #expect(try function("courier_response_free").code(.pointer(response.pointee)) == 0)
        #expect(try function("courier_request_free").code(.pointer(request.pointee)) == 0)
        #expect(try function("courier_client_free").code(.pointer(client.pointee)) == 0)
        #expect(try function("courier_client_free").code(.pointer(client.pointee)) == 2)
    }
}
