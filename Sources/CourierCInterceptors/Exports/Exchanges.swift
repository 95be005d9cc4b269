public import CCourier
package import Courier

#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

@c @implementation
public func courier_exchange_request(
    _ exchange: OpaquePointer?, _ request: UnsafeMutablePointer<OpaquePointer?>?,
    _ error: UnsafeMutablePointer<OpaquePointer?>?
) -> courier_code {
    reporting(error) {
        let box = try exchangeBox(exchange)
        guard let request else { throw CAPIFailure.invalidArgument("request is NULL") }
        request.pointee = try box.withLive(exchange) { state in
            if let handle = state.requestHandle { return handle }
            let handle = try register(box.requestBox(&state))
            state.requestHandle = handle
            return handle
        }
    }
}

@c @implementation
public func courier_exchange_response(
    _ exchange: OpaquePointer?, _ response: UnsafeMutablePointer<OpaquePointer?>?,
    _ error: UnsafeMutablePointer<OpaquePointer?>?
) -> courier_code {
    reporting(error) {
        let box = try exchangeBox(exchange)
        guard let response else { throw CAPIFailure.invalidArgument("response is NULL") }
        response.pointee = try box.withLive(exchange) { state in
            if let handle = state.responseHandle { return handle }
            guard var held = state.response else {
                throw CAPIFailure(COURIER_E_NOT_FOUND, detail: "there is no response yet in this exchange")
            }
            let handle = try register(held.boxing(with: ResponseBox.init))
            state.response = held
            state.responseHandle = handle
            return handle
        }
    }
}

@c @implementation
public func courier_exchange_respond(
    _ exchange: OpaquePointer?, _ response: OpaquePointer?,
    _ error: UnsafeMutablePointer<OpaquePointer?>?
) -> courier_code {
    reporting(error) {
        let box = try exchangeBox(exchange)
        let answeredWithOwn = try box.withLive(exchange) { state in
            guard state.responseHandle != nil, state.responseHandle == response else { return false }
            state.answer = state.currentResponse
            return true
        }
        if answeredWithOwn { return }
        guard let answer = HandleRegistry.shared.remove(response, as: ResponseBox.self) else {
            throw CAPIFailure.invalidHandle("response")
        }
        try box.withLive(exchange) { $0.answer = answer.response }
    }
}

@c @implementation
public func courier_exchange_fail(
    _ exchange: OpaquePointer?, _ code: courier_code, _ message: UnsafePointer<CChar>?,
    _ error: UnsafeMutablePointer<OpaquePointer?>?
) -> courier_code {
    reporting(error) {
        let box = try exchangeBox(exchange)
        guard code != COURIER_OK else { throw CAPIFailure.invalidArgument("code is COURIER_OK") }
        let message = try CInput.optionalString(message, "message")
        try box.withLive(exchange) {
            $0.failure = CAPIFailure(
                code, message ?? String(cString: courier_strerror(code)), stage: $0.interceptorName)
        }
    }
}

@c @implementation
public func courier_exchange_proceed(
    _ exchange: OpaquePointer?,
    _ error: UnsafeMutablePointer<OpaquePointer?>?
) -> courier_code {
    reporting(error) {
        try exchangeBox(exchange).proceed(as: exchange)
    }
}

@c @implementation
public func courier_exchange_attempt(
    _ exchange: OpaquePointer?, _ attempt: UnsafeMutablePointer<Int32>?,
    _ error: UnsafeMutablePointer<OpaquePointer?>?
) -> courier_code {
    reporting(error) {
        let box = try exchangeBox(exchange)
        let current = try box.withLive(exchange) { $0.attempt }
        try CInput.store(Int32(clamping: current), into: attempt, "attempt")
    }
}

@c @implementation
public func courier_exchange_request_id(
    _ exchange: OpaquePointer?,
    _ requestID: UnsafeMutablePointer<UnsafePointer<CChar>?>?,
    _ error: UnsafeMutablePointer<OpaquePointer?>?
) -> courier_code {
    reporting(error) {
        let box = try exchangeBox(exchange)
        guard let requestID else { throw CAPIFailure.invalidArgument("request_id is NULL") }
        requestID.pointee = try box.withLive(exchange) { state in
            if state.requestID == nil { state.requestID = strdup(box.context.requestID) }
            return UnsafePointer(state.requestID)
        }
    }
}
