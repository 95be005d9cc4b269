public import CCourier
import Courier
import Foundation

@c @implementation
public func courier_exchange_request(_ exchange: OpaquePointer?, _ request: UnsafeMutablePointer<OpaquePointer?>?,
                                     _ error: UnsafeMutablePointer<OpaquePointer?>?) -> courier_code {
    reporting(error, #function) {
        let box = try exchangeBox(exchange, in: #function)
        guard let request else { throw CAPIFailure.invalidArgument("request is NULL", in: #function) }
        request.pointee = try box.withLive(exchange, in: #function) { state in
            if let handle = state.requestHandle { return handle }
            let handle = try register(box.requestBox(&state), in: #function)
            state.requestHandle = handle
            return handle
        }
    }
}

@c @implementation
public func courier_exchange_response(_ exchange: OpaquePointer?, _ response: UnsafeMutablePointer<OpaquePointer?>?,
                                      _ error: UnsafeMutablePointer<OpaquePointer?>?) -> courier_code {
    reporting(error, #function) {
        let box = try exchangeBox(exchange, in: #function)
        guard let response else { throw CAPIFailure.invalidArgument("response is NULL", in: #function) }
        response.pointee = try box.withLive(exchange, in: #function) { state in
            if let handle = state.responseHandle { return handle }
            guard let current = state.responseBox ?? state.response.map(ResponseBox.init) else {
                throw CAPIFailure(COURIER_E_NOT_FOUND, "\(cName(#function)): there is no response yet in this exchange")
            }
            let handle = try register(current, in: #function)
            state.responseBox = current
            state.responseHandle = handle
            return handle
        }
    }
}

@c @implementation
public func courier_exchange_respond(_ exchange: OpaquePointer?, _ response: OpaquePointer?,
                                     _ error: UnsafeMutablePointer<OpaquePointer?>?) -> courier_code {
    reporting(error, #function) {
        let box = try exchangeBox(exchange, in: #function)
        let answeredWithOwn = try box.withLive(exchange, in: #function) { state in
            guard state.responseHandle != nil, state.responseHandle == response else { return false }
            state.answer = state.currentResponse
            return true
        }
        if answeredWithOwn { return }
        guard let answer = HandleRegistry.shared.remove(response, as: ResponseBox.self) else {
            throw CAPIFailure.invalidHandle("response", in: #function)
        }
        try box.withLive(exchange, in: #function) { $0.answer = answer.response }
    }
}

@c @implementation
public func courier_exchange_fail(_ exchange: OpaquePointer?, _ code: courier_code, _ message: UnsafePointer<CChar>?,
                                  _ error: UnsafeMutablePointer<OpaquePointer?>?) -> courier_code {
    reporting(error, #function) {
        let box = try exchangeBox(exchange, in: #function)
        guard code != COURIER_OK else { throw CAPIFailure.invalidArgument("code is COURIER_OK", in: #function) }
        let message = try CInput.optionalString(message, "message", in: #function)
        try box.withLive(exchange, in: #function) {
            $0.failure = CAPIFailure(code, message ?? String(cString: courier_strerror(code)), stage: $0.interceptorName)
        }
    }
}

@c @implementation
public func courier_exchange_proceed(_ exchange: OpaquePointer?,
                                     _ error: UnsafeMutablePointer<OpaquePointer?>?) -> courier_code {
    reporting(error, #function) {
        try exchangeBox(exchange, in: #function).proceed(as: exchange)
    }
}

@c @implementation
public func courier_exchange_attempt(_ exchange: OpaquePointer?, _ attempt: UnsafeMutablePointer<Int32>?,
                                     _ error: UnsafeMutablePointer<OpaquePointer?>?) -> courier_code {
    reporting(error, #function) {
        let box = try exchangeBox(exchange, in: #function)
        let current = try box.withLive(exchange, in: #function) { $0.attempt }
        try CInput.store(Int32(clamping: current), into: attempt, "attempt", in: #function)
    }
}

@c @implementation
public func courier_exchange_request_id(_ exchange: OpaquePointer?,
                                        _ requestID: UnsafeMutablePointer<UnsafePointer<CChar>?>?,
                                        _ error: UnsafeMutablePointer<OpaquePointer?>?) -> courier_code {
    reporting(error, #function) {
        let box = try exchangeBox(exchange, in: #function)
        guard let requestID else { throw CAPIFailure.invalidArgument("request_id is NULL", in: #function) }
        requestID.pointee = try box.withLive(exchange, in: #function) { state in
            if state.requestID == nil { state.requestID = strdup(box.context.requestID) }
            return UnsafePointer(state.requestID)
        }
    }
}
