/// What a `courier_registrar` handle names: the interceptors a plugin registers during init.
final class RegistrarBox: HandleObject, @unchecked Sendable {
    static let handleKind = HandleKind.registrar

    let defaultTimeout: Duration?
    private let registered = Locked<[CInterceptor]>([])

    init(defaultTimeout: Duration?) {
        self.defaultTimeout = defaultTimeout
    }

    func add(_ interceptor: CInterceptor) { registered.withLock { $0.append(interceptor) } }

    var interceptors: [CInterceptor] { registered.withLock { $0 } }
}
