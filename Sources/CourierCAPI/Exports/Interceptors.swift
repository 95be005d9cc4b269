public import CCourier
import Courier
import CourierCInterceptors

@c @implementation
public func courier_client_add_interceptor(
    _ client: OpaquePointer?, _ interceptor: UnsafePointer<courier_interceptor>?,
    _ error: UnsafeMutablePointer<OpaquePointer?>?
) -> courier_code {
    reporting(error) {
        let box = try clientBox(client)
        guard let interceptor else { throw CAPIFailure.invalidArgument("interceptor is NULL") }
        box.append([try CInterceptor(interceptor, defaultTimeout: box.timeout)])
    }
}

@c @implementation
public func courier_client_remove_interceptor(
    _ client: OpaquePointer?, _ name: UnsafePointer<CChar>?,
    _ error: UnsafeMutablePointer<OpaquePointer?>?
) -> courier_code {
    reporting(error) {
        let box = try clientBox(client)
        let name = try CInput.string(name, "name")
        guard box.removeInterceptors(where: { $0.name == name }) > 0 else {
            throw CAPIFailure(COURIER_E_NOT_FOUND, detail: "the client has no interceptor named \(name)")
        }
    }
}

@c @implementation
public func courier_client_add_builtin(
    _ client: OpaquePointer?, _ kind: UnsafePointer<CChar>?, _ config: UnsafePointer<CChar>?,
    _ error: UnsafeMutablePointer<OpaquePointer?>?
) -> courier_code {
    reporting(error) {
        let box = try clientBox(client)
        let kindName = try CInput.string(kind, "kind")
        guard let builtin = BuiltinInterceptor(rawValue: kindName) else {
            throw CAPIFailure(
                COURIER_E_NOT_FOUND,
                detail: "there is no built-in interceptor \"\(kindName)\" (there are: \(BuiltinInterceptor.names))")
        }
        let configuration = try CInput.optionalString(config, "config")
        do throws(BuiltinConfigurationError) {
            box.append([try builtin.make(configuration: configuration)])
        } catch {
            throw CAPIFailure.invalidArgument("\(error.kind.rawValue) config: \(error.message)")
        }
    }
}
