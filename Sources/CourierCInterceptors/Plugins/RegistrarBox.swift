/// What a `courier_registrar` handle names: the interceptors a plugin registers during init.
package final class RegistrarBox: HandleObject, Sendable {
    package static let handleKind = HandleKind.registrar

    package let defaultTimeout: Duration?
    private let registered = Locked<[CInterceptor]>([])

    package init(defaultTimeout: Duration?) {
        self.defaultTimeout = defaultTimeout
    }

    package func add(_ interceptor: CInterceptor) { registered.withLock { $0.append(interceptor) } }

    package var interceptors: [CInterceptor] { registered.withLock { $0 } }
}
