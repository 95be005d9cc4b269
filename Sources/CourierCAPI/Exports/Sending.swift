public import CCourier
import Courier
import CourierCInterceptors

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

@c @implementation
public func courier_send_options_init(_ options: UnsafeMutablePointer<courier_send_options>?) {
    guard let options else { return }
    ExtensibleStruct.initialize(
        options, with: courier_send_options(),
        firstVersionSize: ExtensibleStruct.FirstVersionSize.sendOptions)
}

@c @implementation
public func courier_client_send(
    _ client: OpaquePointer?, _ request: OpaquePointer?,
    _ response: UnsafeMutablePointer<OpaquePointer?>?,
    _ error: UnsafeMutablePointer<OpaquePointer?>?
) -> courier_code {
    courier_client_send_with(client, request, nil, response, error)
}

@c @implementation
public func courier_client_send_with(
    _ client: OpaquePointer?, _ request: OpaquePointer?,
    _ options: UnsafePointer<courier_send_options>?,
    _ response: UnsafeMutablePointer<OpaquePointer?>?,
    _ error: UnsafeMutablePointer<OpaquePointer?>?
) -> courier_code {
    reporting(error) {
        try runBlocking(client, request, options, response) { operation in
            try await operation.run(drivingCurlHere: true)
        }
    }
}

/// What the blocking calls share (`courier_client_send_with`, `courier_client_download`): refused
/// inside a Courier callback, the handles and options checked, counted as under way (so that a
/// `courier_client_free` racing it waits for it), `body` run on the calling thread's send worker
/// with the caller's cancel check, and its response registered for C.
func runBlocking(
    _ client: OpaquePointer?, _ request: OpaquePointer?, _ options: UnsafePointer<courier_send_options>?,
    _ response: UnsafeMutablePointer<OpaquePointer?>?, in function: StaticString = #function,
    _ body: @escaping @Sendable (SendOperation) async throws -> Response
) throws {
    guard !ThreadRole.isInsideCallback else {
        throw CAPIFailure(
            COURIER_E_WOULD_BLOCK,
            detail: "a blocking send from inside a Courier callback would deadlock; use courier_client_send_async")
    }
    let client = try clientBox(client, in: function)
    let request = try requestBox(request, in: function)
    guard let response else { throw CAPIFailure.invalidArgument("response is NULL", in: function) }
    let operation = try SendOperation(
        client: client.snapshot, request: request.request, options: options, in: function)
    guard client.pool.begin() else { throw CAPIFailure.invalidHandle("client", in: function) }
    defer { client.pool.end() }
    // The box is made on the worker, so the result handed back across the thread is one reference
    // rather than a whole `Response` copied at each step.
    let result = ThreadRole.current.sendWorker.run(checking: operation.shouldCancel) {
        ResponseBox(try await body(operation))
    }
    response.pointee = try register(try result.get())
}

@c @implementation
public func courier_client_send_async(
    _ client: OpaquePointer?, _ request: OpaquePointer?,
    _ options: UnsafePointer<courier_send_options>?,
    _ completion: courier_completion_fn?, _ userData: UnsafeMutableRawPointer?,
    _ call: UnsafeMutablePointer<OpaquePointer?>?,
    _ error: UnsafeMutablePointer<OpaquePointer?>?
) -> courier_code {
    reporting(error) {
        let client = try clientBox(client)
        let request = try requestBox(request)
        guard let completion else { throw CAPIFailure.invalidArgument("completion is NULL") }
        let operation = try SendOperation(client: client.snapshot, request: request.request, options: options)
        guard operation.shouldCancel == nil else {
            throw CAPIFailure.invalidArgument(
                "courier_send_options.should_cancel is for blocking sends; cancel an asynchronous send with courier_call_cancel"
            )
        }
        let pool = client.pool
        let queue = client.completionQueue
        // A courier_client_free racing this call either waits for this send or refuses it here:
        // the completion runs exactly once, or this call returns an error and it never runs.
        guard pool.begin() else { throw CAPIFailure.invalidHandle("client") }
        // Only a caller that asked for the call handle can wait for or cancel the send: without
        // one, the box and its condition (three allocations) would serve nobody.
        let callBox = call.map { _ in CallBox() }
        if let call, let callBox {
            do {
                call.pointee = try register(callBox)
            } catch {
                pool.end()
                throw error
            }
        }
        let finish = UncheckedBox((completion, userData))
        let send: AsyncSendWorkers.Send = {
            let outcome = UncheckedBox(await outcomeHandles(of: operation))
            callBox?.outcomeKnown()
            let complete: CompletionQueue.Completion = {
                let (completion, userData) = finish.value
                let (response, error) = outcome.value
                ThreadRole.inCallback { completion(userData, response, error) }
                callBox?.finish()
                pool.end()
            }
            if queue?.deliver(complete) != true { complete() }
        }
        guard client.workers.run(send, reportingTo: callBox) else {
            pool.end()
            if let call, let handle = call.pointee {
                _ = HandleRegistry.shared.remove(handle, as: CallBox.self)
                call.pointee = nil
            }
            throw CAPIFailure.invalidHandle("client")
        }
    }
}

@c @implementation
public func courier_call_cancel(_ call: OpaquePointer?, _ error: UnsafeMutablePointer<OpaquePointer?>?) -> courier_code
{
    reporting(error) {
        try callBox(call).cancel()
    }
}

@c @implementation
public func courier_call_wait(_ call: OpaquePointer?, _ error: UnsafeMutablePointer<OpaquePointer?>?) -> courier_code {
    reporting(error) {
        let box = try callBox(call)
        guard !ThreadRole.isInsideCallback else {
            throw CAPIFailure(COURIER_E_WOULD_BLOCK, detail: "waiting from inside a Courier callback would deadlock")
        }
        box.wait()
    }
}

@c @implementation
public func courier_call_free(_ call: OpaquePointer?) -> courier_code {
    guard let call else { return COURIER_OK }
    return HandleRegistry.shared.remove(call, as: CallBox.self) == nil ? COURIER_E_INVALID_HANDLE : COURIER_OK
}

/// Looks up a call handle or fails naming the function: `COURIER_E_FORKED` for a send of the
/// process this one was forked from, which runs (or ran) there, never here.
private func callBox(_ handle: OpaquePointer?, in function: StaticString = #function) throws -> CallBox {
    guard let box = HandleRegistry.shared.object(handle, as: CallBox.self) else {
        throw CAPIFailure.invalidHandle("call", in: function)
    }
    if let refusal = ForkGeneration.refusal(madeIn: box.forkGeneration, what: "the call's send") {
        throw CAPIFailure(refusal, in: "\(function)")
    }
    return box
}

/// Runs an asynchronous send and gives its outcome as the handles its completion receives.
///
/// A function of its own so that the response and the error are released when it returns: the
/// handles are then their only owners, and once C frees them (even before the completion has
/// returned and the task has ended) nothing of the exchange is left alive. A debug build keeps a
/// local alive to the end of its scope, so in the task's own body they would outlive the
/// completion, and a program that exits right after `courier_call_wait` would leave them behind.
private func outcomeHandles(of operation: SendOperation) async -> (response: OpaquePointer?, error: OpaquePointer?) {
    do {
        let response = try await operation.run()
        if let handle = HandleRegistry.shared.register(ResponseBox(consume response)) { return (handle, nil) }
        return (nil, ErrorBox.register(CAPIFailure(COURIER_E_INTERNAL, "too many live handles")))
    } catch {
        return (nil, ErrorBox.register(CAPIFailure(error, in: "courier_client_send_async")))
    }
}
